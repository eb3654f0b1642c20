import FileSystem
import Multipart

/// A file a job sends, with its stamp (size, modification time and identity) as it was when it
/// was queued.
///
/// The recorded stamp lets a later attempt or a later run notice that the file changed since the
/// user chose it (``FileStamp/change(to:)``), so a changed file is flagged instead of being sent
/// silently.
public struct QueuedFile: Sendable, Hashable, Codable {
    /// The file's path.
    public var path: String
    /// Its stamp when queued; nil when it could not be examined then (missing, say).
    public var stamp: FileStamp?
    /// The filename its part is sent with when not the path's last component: a folder's file
    /// carries its path relative to the folder's parent (`photos/2024/a.jpg`), as browsers send
    /// a folder pick.
    public var partFilename: String?

    /// Creates a queued file from a recorded stamp.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - stamp: Its stamp when queued, nil when unknown.
    ///   - partFilename: The filename its part is sent with, nil for the path's last component.
    public init(path: String, stamp: FileStamp?, partFilename: String? = nil) {
        self.path = path
        self.stamp = stamp
        self.partFilename = partFilename
    }

    /// Creates a queued file from a recorded size and modification time, and identity where known
    /// (a folder listing's entry).
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - size: Its size when queued.
    ///   - modificationTimeNanoseconds: Its modification time when queued.
    ///   - identity: Which file it was, if known.
    ///   - partFilename: The filename its part is sent with, nil for the path's last component.
    public init(path: String, size: Int64?, modificationTimeNanoseconds: Int64?, identity: FileIdentity? = nil,
                partFilename: String? = nil) {
        let stamp = size.flatMap { size in
            modificationTimeNanoseconds.map { FileStamp(size: size, modificationTimeNanoseconds: $0, identity: identity) }
        }
        self.init(path: path, stamp: stamp, partFilename: partFilename)
    }

    /// Its size in bytes when queued; nil when unknown.
    public var size: Int64? { stamp?.size }

    /// Its modification time in nanoseconds since the epoch when queued; nil when unknown.
    public var modificationTimeNanoseconds: Int64? { stamp?.modificationTimeNanoseconds }

    /// Records a file's current stamp.
    ///
    /// Never fails: a file that cannot be examined now, or is not a regular file, is recorded
    /// without a stamp (so it counts no bytes), and the job fails with the encoder's precise
    /// reason (missing, directory, ...) when it is sent.
    ///
    /// - Parameter path: The file's path; symbolic links are followed.
    /// - Returns: The queued file.
    public static func capture(path: String) -> QueuedFile {
        QueuedFile(path: path, stamp: regularFileStamp(of: path))
    }

    /// The file as it is now, re-captured.
    ///
    /// - Returns: A copy with the current stamp (and the same part filename).
    public func recaptured() -> QueuedFile {
        QueuedFile(path: path, stamp: QueuedFile.regularFileStamp(of: path), partFilename: partFilename)
    }

    /// Whether the file now differs from when it was queued (``FileStamp/change(to:)``).
    ///
    /// A file that cannot be examined now is not reported as changed: sending it fails with the
    /// encoder's more precise reason.
    ///
    /// - Returns: True when the file exists and differs from the recorded stamp.
    public func hasChangedSinceQueued() -> Bool {
        guard let now = QueuedFile.regularFileStamp(of: path) else { return false }
        return hasChanged(comparedTo: now)
    }

    /// Whether `now`, a stamp of the file taken since, differs from the recorded one. A file
    /// queued without a stamp has changed once it has one.
    ///
    /// - Parameter now: The file's stamp now.
    /// - Returns: True when it differs.
    public func hasChanged(comparedTo now: FileStamp) -> Bool {
        guard let stamp else { return true }
        return stamp.change(to: now) != nil
    }

    /// The stamp of a regular file; nil for anything else (a folder's size is not bytes to send).
    private static func regularFileStamp(of path: String) -> FileStamp? {
        guard let (stamp, isRegularFile) = FileStamp.current(of: path), isRegularFile else { return nil }
        return stamp
    }

    // The journal's shape: the stamp's members beside the path; rows written before part
    // filenames have none.
    private enum CodingKeys: String, CodingKey {
        case path, size, modificationTimeNanoseconds, device, inode, partFilename
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let path = try container.decode(String.self, forKey: .path)
        let size = try container.decodeIfPresent(Int64.self, forKey: .size)
        let time = try container.decodeIfPresent(Int64.self, forKey: .modificationTimeNanoseconds)
        let device = try container.decodeIfPresent(UInt64.self, forKey: .device)
        let inode = try container.decodeIfPresent(UInt64.self, forKey: .inode)
        let partFilename = try container.decodeIfPresent(String.self, forKey: .partFilename)
        self.init(path: path, size: size, modificationTimeNanoseconds: time, partFilename: partFilename)
        if let device, let inode { stamp?.identity = FileIdentity(device: device, inode: inode) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(stamp?.size, forKey: .size)
        try container.encodeIfPresent(stamp?.modificationTimeNanoseconds, forKey: .modificationTimeNanoseconds)
        try container.encodeIfPresent(stamp?.identity?.device, forKey: .device)
        try container.encodeIfPresent(stamp?.identity?.inode, forKey: .inode)
        try container.encodeIfPresent(partFilename, forKey: .partFilename)
    }
}
