/// Why a proxy URL (`--proxy`, `http_proxy`, `https_proxy`, `all_proxy`) cannot be used. The
/// URLs in the cases have their credentials taken out, so a description never shows a password.
public enum ProxyURLError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The proxy's scheme is not `http` (an `https://` or `socks5://` proxy, say).
    case unsupportedScheme(scheme: String, url: String)
    /// The text is not a URL (a character a URL cannot hold, a port that is not a number).
    case notAURL(url: String)
    /// The URL names no host.
    case missingHost(url: String)
    /// The port is not a number between 1 and 65535.
    case badPort(url: String)

    /// Where a proxy URL comes from, for the descriptions.
    static let optionNames = "--proxy (or http_proxy, https_proxy, all_proxy)"

    public var description: String {
        switch self {
        case let .unsupportedScheme(scheme, url):
            return "the proxy \(url) is not supported: Ferry reaches proxies over http:// only, not \(scheme)://; "
                + "give an http:// proxy in \(Self.optionNames)"
        case let .notAURL(url):
            return "the proxy \(url) is not a URL: give http://host:port in \(Self.optionNames)"
        case let .missingHost(url):
            return "the proxy \(url) has no host: give http://host:port in \(Self.optionNames)"
        case let .badPort(url):
            return "the proxy \(url) has a bad port: give one between 1 and 65535 in \(Self.optionNames)"
        }
    }
}
