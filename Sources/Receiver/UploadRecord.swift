/// What one upload request delivered: its text fields and its files.
///
/// This is the JSON body of a successful upload response and one element of `GET /uploads`:
/// `{"fields": {NAME: [VALUE, ...]}, "files": [UploadedFile, ...]}`. Field values keep the order
/// they arrived in; files keep the order of their parts.
public struct UploadRecord: Codable, Sendable, Hashable {
    /// Text fields by name; a name sent several times has several values.
    public var fields: [String: [String]]
    /// The stored files, in the order they were sent.
    public var files: [UploadedFile]

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - fields: Text field values by name.
    ///   - files: The stored files.
    public init(fields: [String: [String]] = [:], files: [UploadedFile] = []) {
        self.fields = fields
        self.files = files
    }
}
