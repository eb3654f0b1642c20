/// Why a `-F` argument could not be parsed. Each case carries the whole argument.
public enum CurlFormSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `=` between name and value.
    case missingEquals(String)
    /// Nothing before the `=`.
    case emptyName(String)
    /// `@` or `<` with no path after it.
    case emptyPath(String)
    /// A `"` that is never closed.
    case unterminatedQuote(String)
    /// Text right after a closing quote, where `;` or the end must follow.
    case textAfterQuote(String)
    /// `;type=` that is not `major/minor`.
    case badContentType(String, String)
    /// `;headers=` that is not `Name: value`.
    case badHeader(String, String)
    /// A parameter curl knows that Ferry does not support.
    case unsupportedParameter(String, String)
    /// A parameter curl would skip with a warning; Ferry refuses it so nothing is lost silently.
    case unknownParameter(String, String)

    public var description: String {
        switch self {
        case let .missingEquals(arg): return "-F '\(arg)': expected NAME=VALUE, NAME=@FILE or NAME=<FILE"
        case let .emptyName(arg): return "-F '\(arg)': the field name is empty"
        case let .emptyPath(arg): return "-F '\(arg)': no file path after @ or <"
        case let .unterminatedQuote(arg): return "-F '\(arg)': a double quote is not closed"
        case let .textAfterQuote(arg): return "-F '\(arg)': unexpected text after a closing quote (expected ';' or the end)"
        case let .badContentType(type, arg): return "-F '\(arg)': type=\(type) is not a content type like text/plain"
        case let .badHeader(header, arg): return "-F '\(arg)': headers=\(header) is not 'Name: value'"
        case let .unsupportedParameter(param, arg): return "-F '\(arg)': \(param) is not supported by Ferry"
        case let .unknownParameter(param, arg):
            return "-F '\(arg)': unknown parameter '\(param)'; to send a ';' in a value, put the value in double quotes"
        }
    }
}
