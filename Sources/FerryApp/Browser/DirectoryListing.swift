/// The result of reading one directory: its entries, or why it could not be read.
public struct DirectoryListing: Hashable, Sendable {
    /// The directory's path.
    public var path: String
    /// The entries, unsorted, without `.` and `..`.
    public var entries: [BrowserEntry]
    /// Why the directory could not be read, if it could not.
    public var error: String?
    /// The name of the entry to put the cursor on (the folder one came up from).
    public var focusName: String?

    /// Creates a listing.
    ///
    /// - Parameters:
    ///   - path: The directory's path.
    ///   - entries: The entries.
    ///   - error: Why the directory could not be read.
    ///   - focusName: The entry to put the cursor on.
    public init(path: String, entries: [BrowserEntry], error: String? = nil, focusName: String? = nil) {
        self.path = path
        self.entries = entries
        self.error = error
        self.focusName = focusName
    }
}
