import FileSystem

/// One part of a `multipart/form-data` body: a text field or a file.
public struct FormPart: Sendable, Hashable, Codable {
    /// The field name (`name=` in `Content-Disposition`).
    public var name: String
    /// What the part carries.
    public var content: FormPartContent
    /// The filename sent for a file part; nil for a text part.
    public var filename: String?
    /// An explicit `Content-Type`. File parts without one get a type by extension; text parts
    /// without one carry no `Content-Type` header.
    public var contentType: String?
    /// Extra part headers, written after `Content-Disposition` and `Content-Type`.
    public var extraHeaders: [HeaderField]

    /// Creates a part.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - content: Text, or a file source.
    ///   - filename: The filename for a file part.
    ///   - contentType: An explicit content type.
    ///   - extraHeaders: Extra part headers.
    public init(
        name: String,
        content: FormPartContent,
        filename: String? = nil,
        contentType: String? = nil,
        extraHeaders: [HeaderField] = []
    ) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
        self.extraHeaders = extraHeaders
    }

    /// A text field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    /// - Returns: The part.
    public static func text(name: String, value: String) -> FormPart {
        FormPart(name: name, content: .text(value))
    }

    /// A file part read from `path` when the body is streamed.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - path: The file's path.
    ///   - filename: The filename sent; defaults to the last component of `path`.
    ///   - contentType: An explicit content type, else looked up by extension.
    /// - Returns: The part.
    public static func file(name: String, path: String, filename: String? = nil, contentType: String? = nil) -> FormPart {
        FormPart(
            name: name,
            content: .file(.path(path)),
            filename: filename ?? PathName.lastComponent(of: path),
            contentType: contentType
        )
    }

    /// A file part whose bytes are in memory.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - filename: The filename sent.
    ///   - bytes: The content.
    ///   - contentType: An explicit content type, else looked up by the filename's extension.
    /// - Returns: The part.
    public static func file(name: String, filename: String, bytes: [UInt8], contentType: String? = nil) -> FormPart {
        FormPart(name: name, content: .file(.bytes(bytes)), filename: filename, contentType: contentType)
    }
}
