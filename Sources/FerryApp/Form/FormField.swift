/// One row of the form pane, which the form cursor points at.
public enum FormField: Hashable, Sendable {
    /// The target URL.
    case url
    /// The HTTP method, chosen from POST, PUT and PATCH.
    case method
    /// The file field name.
    case fileField
    /// One request per file or all in one.
    case mode
    /// Uploads at once.
    case concurrency
    /// Automatic retries.
    case retries
    /// Whether secret header values are saved with the form for the next start.
    case remembersSecrets
    /// A parameter row.
    case parameter(Int)
    /// A header row.
    case header(Int)
    /// The row after the parameters that adds one.
    case newParameter
    /// The row after the headers that adds one.
    case newHeader

    /// The label the form shows in front of the value.
    public var label: String {
        switch self {
        case .url: "URL"
        case .method: "Method"
        case .fileField: "File field"
        case .mode: "Mode"
        case .concurrency: "Concurrency"
        case .retries: "Retries"
        case .remembersSecrets: "Secrets"
        case .parameter: "Param"
        case .header: "Header"
        case .newParameter: "+ parameter"
        case .newHeader: "+ header"
        }
    }
}
