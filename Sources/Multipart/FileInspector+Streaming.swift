import FileSystem
import Glibc

extension FileInspector {
    /// Opens a prepared file for streaming and checks that it is still the file, with the size
    /// and modification time, that the body's length was computed from.
    ///
    /// - Parameter snapshot: The file as it was when the body was prepared.
    /// - Returns: A descriptor open for reading; the caller **must** close it.
    /// - Throws: `MultipartError.fileChanged` (replaced, size changed, modified) or
    ///   `.fileReadFailed`.
    public static func openUnchanged(_ snapshot: FileSnapshot) throws(MultipartError) -> Int32 {
        let descriptor = FileSystemName.withFileSystemPath(snapshot.path) {
            open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .fileChanged(path: snapshot.path, reason: .replaced) }
            throw .fileReadFailed(path: snapshot.path, errno: code)
        }
        do throws(MultipartError) {
            if let change = snapshot.stamp.change(to: try current(descriptor, snapshot)) {
                throw .fileChanged(path: snapshot.path, reason: change)
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Checks, once a file's declared length has been read or sent, that it neither grew, shrank
    /// nor was modified meanwhile.
    ///
    /// - Parameters:
    ///   - descriptor: The descriptor from `openUnchanged`.
    ///   - snapshot: The file as it was when the body was prepared.
    /// - Throws: `MultipartError.fileChanged` (grew, shrank, modified) or `.fileReadFailed`.
    public static func checkUnchangedAfterReading(_ descriptor: Int32, _ snapshot: FileSnapshot) throws(MultipartError) {
        switch snapshot.stamp.change(to: try current(descriptor, snapshot)) {
        case nil:
            return
        case let .sizeChanged(expected, actual) where actual > expected:
            throw .fileChanged(path: snapshot.path, reason: .grew(expected: expected, actual: actual))
        case let .sizeChanged(expected, _):
            throw .fileChanged(path: snapshot.path, reason: .shrank(expected: expected, read: expected))
        case let change?:
            throw .fileChanged(path: snapshot.path, reason: change)
        }
    }

    private static func current(_ descriptor: Int32, _ snapshot: FileSnapshot) throws(MultipartError) -> FileStamp {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .fileReadFailed(path: snapshot.path, errno: errno) }
        return FileStamp(info)
    }
}
