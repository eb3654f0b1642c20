/// Why a user header cannot be sent.
public enum RequestHeadersError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name is empty or holds characters a header name may not hold.
    case badName(String)
    /// The value holds a line break or NUL.
    case badValue(String)
    /// Ferry sets this header itself from the body.
    case reserved(String)

    public var description: String {
        switch self {
        case let .badName(name): return "header name \(name.debugDescription) is not valid (letters, digits and !#$%&'*+-.^_`|~ only)"
        case let .badValue(name): return "header \(name): the value holds a line break or NUL"
        case let .reserved(name): return "header \(name) is set by Ferry from the body and cannot be given"
        }
    }
}
