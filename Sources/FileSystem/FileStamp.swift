import Glibc

/// What Ferry records of a file to notice later that it changed: its size, its modification time
/// and, where recorded, its identity. Every "did this file change?" in Ferry is
/// ``change(to:)``: when a job is restored or retried, when its request is built, when the body
/// opens the file and when it has read it, and when a TLS file is looked at again.
public struct FileStamp: Sendable, Hashable, Codable {
    /// The size in bytes.
    public var size: Int64
    /// The modification time, in nanoseconds since the epoch.
    public var modificationTimeNanoseconds: Int64
    /// Which file it was; nil when not recorded (a folder listing's entry, or a job queued by an
    /// earlier Ferry): then only size and modification time are compared.
    public var identity: FileIdentity?

    /// Creates a stamp from recorded values.
    ///
    /// - Parameters:
    ///   - size: The size in bytes.
    ///   - modificationTimeNanoseconds: The modification time in nanoseconds since the epoch.
    ///   - identity: Which file it was, if known.
    public init(size: Int64, modificationTimeNanoseconds: Int64, identity: FileIdentity? = nil) {
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
        self.identity = identity
    }

    /// The stamp of a `stat` or `fstat` result.
    ///
    /// - Parameter info: The result.
    public init(_ info: stat) {
        let time = info.st_mtim
        self.init(
            size: Int64(info.st_size),
            modificationTimeNanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec),
            identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        )
    }

    /// The stamp of what a path names now, whatever kind of file it is (a directory's
    /// modification time moves when an entry is added, removed or renamed).
    ///
    /// - Parameter path: The path; symbolic links are followed.
    /// - Returns: The stamp and whether it is a regular file; nil when it cannot be examined.
    public static func current(of path: String) -> (stamp: FileStamp, isRegularFile: Bool)? {
        var info = stat()
        guard FileSystemName.withFileSystemPath(path, { stat($0, &info) }) == 0 else { return nil }
        return (FileStamp(info), info.st_mode & S_IFMT == S_IFREG)
    }

    /// How the file differs now from this stamp, checked in this order: it is another file
    /// (when both stamps know which), its size changed, it was modified.
    ///
    /// - Parameter now: The file's stamp now.
    /// - Returns: The change, or nil when nothing Ferry can see changed.
    public func change(to now: FileStamp) -> FileChange? {
        if let identity, let current = now.identity, identity != current { return .replaced }
        if size != now.size { return .sizeChanged(expected: size, actual: now.size) }
        if modificationTimeNanoseconds != now.modificationTimeNanoseconds { return .modified }
        return nil
    }
}
