import FoundationEssentials

/// An HTTP proxy, from a URL as curl reads `--proxy` and the `*_proxy` variables:
/// `[http://][user[:password]@]host[:port][/]`. Without a scheme the URL is taken as `http://`;
/// the port is 1080 when the URL has none; the credentials are percent-decoded. Other schemes
/// (`https://`, `socks5://`) are refused.
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
        let text = url.trimmingWhitespace()
        let redacted = Self.redacted(text)
        var rest = Substring(text)
        if let separator = text.firstRange(of: "://") {
            let scheme = text[..<separator.lowerBound].lowercased()
            guard scheme == "http" else { throw .unsupportedScheme(scheme: scheme, url: redacted) }
            rest = text[separator.upperBound...]
        }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let user = userInfo.prefix { $0 != ":" }
            let password = userInfo.dropFirst(user.count + 1)
            username = Self.percentDecoded(user)
            self.password = Self.percentDecoded(password)
            authority = authority[authority.index(after: at)...]
        } else {
            username = nil
            password = nil
        }
        let hostPart: Substring
        let portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .missingHost(url: redacted) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw .badPort(url: redacted) }
            portPart = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
            portPart = nil
        }
        guard !hostPart.isEmpty else { throw .missingHost(url: redacted) }
        host = String(hostPart)
        if let portPart, !portPart.isEmpty {
            guard portPart.allSatisfy(\.isASCII), let port = Int(portPart), (1...65_535).contains(port) else {
                throw .badPort(url: redacted)
            }
            self.port = port
        } else {
            port = Self.defaultPort
        }
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

    /// A proxy URL with its credentials taken out, for error texts.
    static func redacted(_ url: String) -> String {
        let start = url.firstRange(of: "://")?.upperBound ?? url.startIndex
        let authorityEnd = url[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[start..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<start]) + url[url.index(after: at)...]
    }

    /// `%XX` escapes decoded (a proxy URL's user and password); the text as it is when an
    /// escape is malformed or the result is not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard utf8.count >= 2, let high = hexDigit(utf8.removeFirst()), let low = hexDigit(utf8.removeFirst()) else {
                return String(text)
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
