import UploadModel
import UploadProtocols

/// Where pooled connections go, and what identifies a connection there: scheme, host and port,
/// the proxy the job's options choose for them (with its credentials), and for `https` the TLS
/// identity (trust, client certificate, ALPN). Requests to the same endpoint share connections;
/// options that do not shape a connection (redirects, proxies and trust that do not apply to the
/// scheme) do not split the pool. Through a proxy, connections are still kept per server
/// (`ProxyRoute`): a `CONNECT` tunnel leads to one server, and a forwarding proxy's connection
/// carries requests for the server it was opened for only, as simple proxies relay a client
/// connection to the first server it named.
struct PoolEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    let scheme: String
    /// The host name or address.
    let host: String
    /// The TCP port (the scheme's default when the URL has none).
    let port: Int
    /// The proxy the options choose for this scheme and host (nil: straight), or why the proxy
    /// URL that applies cannot be used (connecting fails with it).
    let proxy: Result<ProxyServer?, UploadError>
    /// How TLS is set up, for `https`; nil for `http`.
    let tls: TLSIdentity?

    /// The endpoint of a checked URL.
    ///
    /// - Parameters:
    ///   - target: The URL.
    ///   - options: How connections are made.
    init(_ target: UploadTarget, options: ConnectionOptions) {
        self.init(scheme: target.scheme, host: target.host, port: target.port ?? (target.scheme == "https" ? 443 : 80),
                  options: options)
    }

    /// Creates an endpoint from its parts.
    init(scheme: String, host: String, port: Int, options: ConnectionOptions = ConnectionOptions()) {
        self.scheme = scheme
        self.host = host
        self.port = port
        do {
            proxy = .success(try options.proxy(scheme: scheme, host: host))
        } catch {
            proxy = .failure(.requestInvalid(reason: .invalidProxy(error)))
        }
        tls = scheme == "https" ? TLSIdentity(options) : nil
    }

    /// Equal in every part. Written out so that the pool's lookups compare the proxy without
    /// the standard library's generic `Result` equality, whose runtime type lookups were a
    /// percent of a small file's CPU.
    static func == (lhs: PoolEndpoint, rhs: PoolEndpoint) -> Bool {
        guard lhs.port == rhs.port, lhs.host == rhs.host, lhs.scheme == rhs.scheme, lhs.tls == rhs.tls else {
            return false
        }
        switch (lhs.proxy, rhs.proxy) {
        case let (.success(left), .success(right)): return left == right
        case let (.failure(left), .failure(right)): return left == right
        default: return false
        }
    }

    /// Whether connections use TLS.
    var usesTLS: Bool { tls != nil }

    /// Whether connections may speak HTTP/2: over TLS, when the options offer it (`--http2`).
    var mayMultiplex: Bool { tls?.offersHTTP2 == true }

    /// Hashes scheme, host and port only: endpoints that differ in the rest alone are rare, and
    /// the pool looks an endpoint up several times per request (equality still compares it all).
    func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(port)
    }

    var description: String { "\(host):\(port)" }
}
