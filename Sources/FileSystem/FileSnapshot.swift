/// A file as it was checked when a body was prepared: its path and its stamp (with its
/// identity), so that sending it notices a change since (``FileStamp/change(to:)``).
public struct FileSnapshot: Sendable, Hashable, Codable {
    /// The file's path.
    public var path: String
    /// Its size, modification time and identity when checked.
    public var stamp: FileStamp

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - stamp: Its stamp.
    public init(path: String, stamp: FileStamp) {
        self.path = path
        self.stamp = stamp
    }

    /// Its size in bytes.
    public var size: Int64 { stamp.size }
}
