import FoundationEssentials
import UploadModel

/// An HTTP proxy, from a URL as curl reads `--proxy` and the `*_proxy` variables:
/// `[http://][user[:password]@]host[:port][/]`, read as every URL is (`CheckedURL`). Without a
/// scheme the URL is taken as `http://`; the port is 1080 when the URL has none; the credentials
/// are percent-decoded. Other schemes (`https://`, `socks5://`) are refused.
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or address (without brackets for IPv6).
    public let host: String
    /// The proxy's TCP port.
    public let port: Int
    /// The user name for Basic authentication, if the URL has credentials.
    public let username: String?
    /// The password for Basic authentication ("" when the URL gives only a user name).
    let password: String?

    /// The port a proxy URL without one means (curl's default).
    public static let defaultPort = 1080

    /// Reads a proxy URL.
    ///
    /// - Parameter url: The URL as given.
    /// - Throws: `ProxyURLError` when the scheme is not `http`, there is no host or the port is bad.
    public init(url: String) throws(ProxyURLError) {
        let redacted = url.trimmingWhitespace().removingURLUserInfo()
        let checked: CheckedURL
        do {
            checked = try CheckedURL(url, assumingHTTP: true, schemes: ["http"])
        } catch {
            switch error {
            case let .unsupportedScheme(scheme, _): throw .unsupportedScheme(scheme: scheme, url: redacted)
            case .empty, .missingHost: throw .missingHost(url: redacted)
            case .badPort: throw .badPort(url: redacted)
            case .notAURL: throw .notAURL(url: redacted)
            }
        }
        host = checked.host
        port = checked.port ?? Self.defaultPort
        username = checked.components.user
        password = checked.components.user == nil ? nil : checked.components.password ?? ""
    }

    /// Whether the URL gave credentials.
    public var hasCredentials: Bool { username != nil }

    /// `host:port` (the host in brackets when it is an IPv6 address), without credentials: what
    /// the interface shows and error texts name.
    public var address: String {
        Self.authority(host: host, port: port)
    }

    /// `host:port`, an IPv6 address in brackets: a `CONNECT` request's target, and a server or
    /// proxy as error texts name it.
    ///
    /// - Parameters:
    ///   - host: A host name or address (an IPv6 one without brackets).
    ///   - port: The port.
    /// - Returns: The authority.
    package static func authority(host: String, port: Int) -> String {
        "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    public var description: String { address }

    /// The `Proxy-Authorization` header's value (`Basic` with the credentials), if the URL has
    /// credentials.
    package var authorization: String? {
        guard let username else { return nil }
        return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
    }
}
