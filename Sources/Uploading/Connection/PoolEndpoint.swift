/// Where pooled connections go: scheme, host and port. Requests to the same endpoint share
/// connections.
struct PoolEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    let scheme: String
    /// The host name or address.
    let host: String
    /// The TCP port (the scheme's default when the URL has none).
    let port: Int

    /// The endpoint of a checked URL.
    ///
    /// - Parameter target: The URL.
    init(_ target: UploadTarget) {
        scheme = target.scheme
        host = target.host
        port = target.port ?? (target.scheme == "https" ? 443 : 80)
    }

    /// Creates an endpoint from its parts.
    init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Whether connections use TLS.
    var usesTLS: Bool { scheme == "https" }

    var description: String { "\(host):\(port)" }
}
