import FileSystem
import Glibc

/// Checks that a path can be sent as a file part, without reading it and without ever blocking.
public enum FileInspector {
    /// Checks a file and records its size and identity.
    ///
    /// The checks, in order, each with its own error: the path exists; it is not a directory;
    /// it is a regular file (a FIFO, socket or device is rejected before it is opened, so
    /// checking never blocks); this process can open it for reading; its size is known.
    ///
    /// - Parameter path: The file's path; symbolic links are followed.
    /// - Returns: The file's snapshot.
    /// - Throws: `MultipartError.fileRejected` naming the path and the reason.
    public static func inspect(_ path: String) throws(MultipartError) -> FileSnapshot {
        var info = stat()
        guard FileSystemName.withFileSystemPath(path, { stat($0, &info) }) == 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .fileRejected(path: path, reason: .doesNotExist)
            case EACCES: throw .fileRejected(path: path, reason: .notReadable(errno: code))
            default: throw .fileRejected(path: path, reason: .sizeUnavailable(errno: code))
            }
        }
        if let kind = nonRegularKind(mode: info.st_mode) {
            if kind == "directory" { throw .fileRejected(path: path, reason: .isDirectory) }
            throw .fileRejected(path: path, reason: .notRegularFile(kind: kind))
        }
        // The kernel's own check for opening it to read, with this process's effective IDs, without
        // opening it: the reader opens it once, when it is sent, and checks there that it is
        // still this file (an open here and another there cost a tenth of a small upload).
        guard FileSystemName.withFileSystemPath(path, { faccessat(AT_FDCWD, $0, R_OK, AT_EACCESS) }) == 0 else {
            throw .fileRejected(path: path, reason: .notReadable(errno: errno))
        }
        return FileSnapshot(path: path, stamp: FileStamp(info))
    }

    /// The kind of a non-regular file, or nil for a regular file.
    ///
    /// - Parameter mode: `st_mode` from `stat`.
    /// - Returns: "directory", "FIFO", "socket", "character device", "block device", or nil.
    static func nonRegularKind(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "directory"
        case S_IFIFO: return "FIFO"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        default: return "special file"
        }
    }
}
