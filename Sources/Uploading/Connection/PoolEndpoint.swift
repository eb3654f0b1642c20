/// Where pooled connections go: scheme, host and port, and how (the job's `ConnectionOptions`:
/// trust, client certificate, proxy). Requests to the same endpoint share connections. Through a
/// proxy, connections are still kept per server (`ProxyRoute`): a `CONNECT` tunnel leads to one
/// server, and a forwarding proxy's connection carries requests for the server it was opened
/// for only, as simple proxies relay a client connection to the first server it named.
struct PoolEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    let scheme: String
    /// The host name or address.
    let host: String
    /// The TCP port (the scheme's default when the URL has none).
    let port: Int
    /// How connections to it are made.
    let options: ConnectionOptions

    /// The endpoint of a checked URL.
    ///
    /// - Parameters:
    ///   - target: The URL.
    ///   - options: How connections are made.
    init(_ target: UploadTarget, options: ConnectionOptions) {
        scheme = target.scheme
        host = target.host
        port = target.port ?? (target.scheme == "https" ? 443 : 80)
        self.options = options
    }

    /// Creates an endpoint from its parts.
    init(scheme: String, host: String, port: Int, options: ConnectionOptions = ConnectionOptions()) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.options = options
    }

    /// Whether connections use TLS.
    var usesTLS: Bool { scheme == "https" }

    /// Whether connections may speak HTTP/2: over TLS, when the options offer it (`--http2`).
    var mayMultiplex: Bool { usesTLS && options.offersHTTP2 }

    /// Hashes scheme, host and port only: endpoints that differ in their options alone are rare,
    /// and the pool looks an endpoint up several times per request (equality still compares the
    /// options).
    func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
    }

    var description: String { "\(host):\(port)" }
}
