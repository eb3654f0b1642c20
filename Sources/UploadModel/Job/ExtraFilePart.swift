/// An extra file part sent with every upload of a job, as curl's `-F name=@path;type=;filename=`.
public struct ExtraFilePart: Sendable, Hashable, Codable {
    /// The field name.
    public var name: String
    /// The file's path.
    public var path: String
    /// The filename sent; nil for the last component of `path`.
    public var filename: String?
    /// An explicit content type; nil to look it up by extension.
    public var contentType: String?
    /// How many of the job's text fields come before this part in the form, so that parts go
    /// out in the order they were given (`-F a=1 -F f=@x -F b=2` sends a, f, b, as curl does);
    /// nil for after all of them (jobs journaled before the order was kept).
    public var textFieldsBefore: Int?
    /// The file's size when the job was planned, counted in the job's bytes; nil when unknown.
    public var size: Int64?

    /// Creates an extra file part.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - path: The file's path.
    ///   - filename: The filename sent.
    ///   - contentType: An explicit content type.
    ///   - textFieldsBefore: How many text fields come before it; nil for after all of them.
    ///   - size: The file's size, if known.
    public init(name: String, path: String, filename: String? = nil, contentType: String? = nil,
                textFieldsBefore: Int? = nil, size: Int64? = nil) {
        self.name = name
        self.path = path
        self.filename = filename
        self.contentType = contentType
        self.textFieldsBefore = textFieldsBefore
        self.size = size
    }
}
