#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Multipart

/// A file a job sends, with its size and modification time as they were when it was queued.
///
/// The recorded stamp lets a later attempt or a later run notice that the file changed since the
/// user chose it, so a changed file is flagged instead of being sent silently.
public struct QueuedFile: Sendable, Hashable, Codable {
    /// The file's path.
    public var path: String
    /// Its size in bytes when queued; nil when it could not be examined then (missing, say).
    public var size: Int64?
    /// Its modification time in nanoseconds since the epoch when queued; nil when unknown.
    public var modificationTimeNanoseconds: Int64?

    /// Creates a queued file from recorded values.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - size: Its size when queued.
    ///   - modificationTimeNanoseconds: Its modification time when queued.
    public init(path: String, size: Int64?, modificationTimeNanoseconds: Int64?) {
        self.path = path
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
    }

    /// Records a file's current size and modification time.
    ///
    /// Never fails: a file that cannot be examined now, or is not a regular file, is recorded
    /// without a stamp (so it counts no bytes), and the job fails with the encoder's precise
    /// reason (missing, directory, ...) when it is sent.
    ///
    /// - Parameter path: The file's path; symbolic links are followed.
    /// - Returns: The queued file.
    public static func capture(path: String) -> QueuedFile {
        guard let stamp = currentStamp(of: path) else {
            return QueuedFile(path: path, size: nil, modificationTimeNanoseconds: nil)
        }
        return QueuedFile(path: path, size: stamp.size, modificationTimeNanoseconds: stamp.modificationTimeNanoseconds)
    }

    /// The file as it is now, re-captured.
    ///
    /// - Returns: A copy with the current size and modification time.
    public func recaptured() -> QueuedFile {
        QueuedFile.capture(path: path)
    }

    /// Whether the file now differs in size or modification time from when it was queued.
    ///
    /// A file that cannot be examined now is not reported as changed: sending it fails with the
    /// encoder's more precise reason.
    ///
    /// - Returns: True when the file exists and its stamp differs from the recorded one.
    public func hasChangedSinceQueued() -> Bool {
        guard let now = QueuedFile.currentStamp(of: path) else { return false }
        return now.size != size || now.modificationTimeNanoseconds != modificationTimeNanoseconds
    }

    /// The stamp of a regular file; nil for anything else (a folder's size is not bytes to send).
    private static func currentStamp(of path: String) -> (size: Int64, modificationTimeNanoseconds: Int64)? {
        var info = stat()
        guard FileSystemName.withFileSystemPath(path, { stat($0, &info) }) == 0,
              info.st_mode & S_IFMT == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return (Int64(info.st_size), Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
