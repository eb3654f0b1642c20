import UploadModel
import UploadProtocols

/// How connections to an endpoint reach it: straight, through a forwarding proxy (`http://`
/// targets: each request names the whole URL), or through a proxy's `CONNECT` tunnel
/// (`https://` targets: TLS runs end to end inside it).
enum ProxyRoute: Sendable, Hashable {
    /// A TCP connection to the server itself.
    case direct
    /// A connection to the proxy, which forwards each request (absolute-form request targets,
    /// `Proxy-Authorization` on each request).
    case forward(through: ProxyServer)
    /// A connection to the proxy, turned into a tunnel to the server with `CONNECT`.
    case tunnel(through: ProxyServer)

    /// The route to `endpoint` under its options.
    ///
    /// - Parameter endpoint: Where the connections go.
    /// - Throws: `UploadError.requestInvalid` with `.invalidProxy` when the proxy URL that
    ///   applies cannot be used.
    init(to endpoint: PoolEndpoint) throws(UploadError) {
        guard let proxy = try endpoint.proxy.get() else {
            self = .direct
            return
        }
        self = endpoint.usesTLS ? .tunnel(through: proxy) : .forward(through: proxy)
    }

    /// The proxy, if the route goes through one.
    var proxy: ProxyServer? {
        switch self {
        case .direct: return nil
        case let .forward(proxy), let .tunnel(proxy): return proxy
        }
    }
}
