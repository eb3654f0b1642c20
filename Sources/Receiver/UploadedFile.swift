/// One file the receiver stored: where it came from, where it went, and what it contained.
///
/// Encoded in responses and logs as
/// `{"field", "filename", "savedAs", "size", "contentType", "sha256"}`.
public struct UploadedFile: Codable, Sendable, Hashable {
    /// The form field name of the part.
    public var field: String
    /// The filename the client sent (decoded, unsanitised); bytes that are not UTF-8 are
    /// written `\xNN`.
    public var filename: String
    /// The name the file was saved under, directly inside the upload directory; bytes that are
    /// not UTF-8 (kept from the client's filename) are written `\xNN`.
    public var savedAs: String
    /// The number of bytes stored.
    public var size: Int64
    /// The part's `Content-Type`, or `application/octet-stream` when it had none.
    public var contentType: String
    /// The SHA-256 of the stored bytes, as 64 lowercase hex digits.
    public var sha256: String

    /// Creates a file description.
    ///
    /// - Parameters:
    ///   - field: The form field name.
    ///   - filename: The filename the client sent.
    ///   - savedAs: The name under the upload directory.
    ///   - size: The byte count.
    ///   - contentType: The part's content type.
    ///   - sha256: The hex SHA-256 of the content.
    public init(field: String, filename: String, savedAs: String, size: Int64, contentType: String, sha256: String) {
        self.field = field
        self.filename = filename
        self.savedAs = savedAs
        self.size = size
        self.contentType = contentType
        self.sha256 = sha256
    }
}
