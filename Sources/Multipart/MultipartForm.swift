/// An ordered list of form parts: what one `multipart/form-data` request body carries.
///
/// Parts are encoded in the order given. Several parts may share a name (RFC 7578 §4.3: many
/// files under one field name).
public struct MultipartForm: Sendable, Hashable, Codable {
    /// The parts, in wire order.
    public var parts: [FormPart]

    /// Creates a form.
    ///
    /// - Parameter parts: The parts, in wire order.
    public init(parts: [FormPart] = []) {
        self.parts = parts
    }

    /// Appends a text field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value, sent byte for byte (line breaks as given).
    public mutating func addText(name: String, value: String) {
        parts.append(.text(name: name, value: value))
    }

    /// Appends a file part read from disk when the body is streamed.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - path: The file's path.
    ///   - filename: The filename sent; defaults to the last component of `path`.
    ///   - contentType: An explicit content type; when nil it is looked up by extension.
    public mutating func addFile(name: String, path: String, filename: String? = nil, contentType: String? = nil) {
        parts.append(.file(name: name, path: path, filename: filename, contentType: contentType))
    }
}
