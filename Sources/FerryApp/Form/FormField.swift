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
    /// `multipart/form-data` or tus (resumable, one upload per file).
    case uploadProtocol
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
    /// The proxy for every request (`--proxy`).
    case proxy
    /// Hosts reached without the proxy (`--noproxy`).
    case noProxy
    /// Whether 307 and 308 are followed (`-L`).
    case followsRedirects
    /// Whether HTTP/2 is offered over https (`--http2`), or HTTP/1.1 only.
    case offersHTTP2
    /// Whether requests go as resumable uploads (`--resumable`).
    case resumesUploads
    /// Whether `https` certificates are verified (`--insecure` when not).
    case verifiesCertificates
    /// A PEM file of authorities to trust (`--cacert`).
    case certificateAuthorityFile
    /// A directory of PEM authorities to trust (`--capath`).
    case certificateAuthorityDirectory
    /// A PEM client certificate (`--cert`).
    case clientCertificate
    /// The client certificate's PEM key (`--key`).
    case clientKey

    /// The rows about how requests reach the server, after the headers.
    public static let connectionRows: [FormField] = [
        .proxy, .noProxy, .followsRedirects, .offersHTTP2, .resumesUploads, .verifiesCertificates, .certificateAuthorityFile,
        .certificateAuthorityDirectory, .clientCertificate, .clientKey,
    ]

    /// Whether Enter switches the row between two values instead of editing it.
    public var isSwitch: Bool {
        switch self {
        case .mode, .uploadProtocol, .remembersSecrets, .followsRedirects, .offersHTTP2, .resumesUploads, .verifiesCertificates: true
        default: false
        }
    }

    /// The label the form shows in front of the value.
    public var label: String {
        switch self {
        case .url: "URL"
        case .method: "Method"
        case .fileField: "File field"
        case .mode: "Mode"
        case .uploadProtocol: "Protocol"
        case .concurrency: "Concurrency"
        case .retries: "Retries"
        case .remembersSecrets: "Secrets"
        case .parameter: "Param"
        case .header: "Header"
        case .newParameter: "+ parameter"
        case .newHeader: "+ header"
        case .proxy: "Proxy"
        case .noProxy: "No proxy"
        case .followsRedirects: "Redirects"
        case .offersHTTP2: "HTTP"
        case .resumesUploads: "Resume"
        case .verifiesCertificates: "TLS"
        case .certificateAuthorityFile: "CA file"
        case .certificateAuthorityDirectory: "CA folder"
        case .clientCertificate: "Client cert"
        case .clientKey: "Client key"
        }
    }
}
