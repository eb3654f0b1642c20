import UploadModel

/// The regular files found under a directory, for selecting a whole folder.
public struct FileCollection: Hashable, Sendable {
    /// The directory that was walked.
    public var directory: String
    /// The files, in walk order.
    public var files: [QueuedFile]
    /// The sum of their sizes.
    public var totalBytes: Int64
    /// Folders and files under the directory that could not be read, if any.
    public var unreadableCount: Int

    /// Creates a collection.
    ///
    /// - Parameters:
    ///   - directory: The directory that was walked.
    ///   - files: The files found.
    ///   - unreadableCount: Folders and files that could not be read.
    public init(directory: String, files: [QueuedFile], unreadableCount: Int = 0) {
        self.directory = directory
        self.files = files
        self.totalBytes = files.reduce(0) { $0 + ($1.size ?? 0) }
        self.unreadableCount = unreadableCount
    }
}
