/// What a file looked like when it was checked: enough to notice later that it changed.
public struct FileSnapshot: Sendable, Hashable, Codable {
    /// The file's path.
    public var path: String
    /// Its size in bytes.
    public var size: Int64
    /// Its modification time, in nanoseconds since the epoch.
    public var modificationTimeNanoseconds: Int64
    /// The device it lives on.
    public var device: UInt64
    /// Its inode number.
    public var inode: UInt64

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - size: Its size in bytes.
    ///   - modificationTimeNanoseconds: Its modification time in nanoseconds since the epoch.
    ///   - device: The device it lives on.
    ///   - inode: Its inode number.
    public init(path: String, size: Int64, modificationTimeNanoseconds: Int64, device: UInt64, inode: UInt64) {
        self.path = path
        self.size = size
        self.modificationTimeNanoseconds = modificationTimeNanoseconds
        self.device = device
        self.inode = inode
    }

    /// Whether `other` is the same file with the same size and modification time.
    ///
    /// - Parameter other: A later snapshot of the same path.
    /// - Returns: True when nothing that Ferry can see has changed.
    public func isUnchanged(comparedTo other: FileSnapshot) -> Bool {
        size == other.size && modificationTimeNanoseconds == other.modificationTimeNanoseconds
            && device == other.device && inode == other.inode
    }
}
