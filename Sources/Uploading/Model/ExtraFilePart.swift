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

    /// Creates an extra file part.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - path: The file's path.
    ///   - filename: The filename sent.
    ///   - contentType: An explicit content type.
    public init(name: String, path: String, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.path = path
        self.filename = filename
        self.contentType = contentType
    }
}
