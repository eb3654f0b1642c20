/// How selected files become requests.
public enum UploadMode: String, CaseIterable, Hashable, Sendable, Codable {
    /// One request per file.
    case perFile
    /// All files in one request.
    case bundle

    /// The label the form shows.
    public var label: String {
        switch self {
        case .perFile: "one request per file"
        case .bundle: "all files in one request"
        }
    }
}
