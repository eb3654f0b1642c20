/// Why a URL cannot be uploaded to.
public enum UploadTargetError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No URL was given.
    case empty
    /// The text is not a URL.
    case notAURL(String)
    /// The scheme is not `http` or `https`.
    case unsupportedScheme(String, String)
    /// The URL has no host.
    case missingHost(String)
    /// The port is out of range.
    case badPort(String)

    public var description: String {
        switch self {
        case .empty: return "no URL: give the address to upload to, e.g. http://127.0.0.1:3000/upload"
        case let .notAURL(url): return "\"\(url)\" is not a URL"
        case let .unsupportedScheme(scheme, url): return "\(url): \(scheme):// is not supported; use http:// or https://"
        case let .missingHost(url): return "\(url): the URL has no host"
        case let .badPort(url): return "\(url): the port must be between 1 and 65535"
        }
    }
}
