/// Which file a path named: the device it lives on and its inode number. A path that names
/// another file later (replaced, renamed over) has another identity.
public struct FileIdentity: Sendable, Hashable, Codable {
    /// The device the file lives on.
    public var device: UInt64
    /// Its inode number.
    public var inode: UInt64

    /// Creates an identity.
    ///
    /// - Parameters:
    ///   - device: The device the file lives on.
    ///   - inode: Its inode number.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
