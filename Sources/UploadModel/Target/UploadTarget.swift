import FoundationEssentials

/// A checked upload URL: `http` or `https`, a host, an optional port, a path and query, and the
/// credentials it carries (`http://user:password@host/`).
///
/// As in curl, a URL without a scheme (`127.0.0.1:3000/upload`) is taken as `http://`, and the
/// credentials of a URL are sent as Basic authentication unless a header sets `Authorization`.
public struct UploadTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host name or address, without brackets for IPv6.
    public let host: String
    /// The explicit port, if the URL has one.
    public let port: Int?
    /// The request target: path (at least `/`) and `?query`, as written in the URL.
    public let requestTarget: String
    /// The URL, with `http://` in front when it was given without a scheme.
    public let url: String
    /// `user:password` from the URL, percent-decoded (the password empty when the URL has none),
    /// for Basic authentication; nil when the URL names no user.
    public let basicCredentials: String?

    /// Checks a URL.
    ///
    /// - Parameters:
    ///   - url: An absolute `http://` or `https://` URL, or, when `assumingHTTP`, one without
    ///   `://` (taken as `http://`, as curl takes what a user types).
    ///   - assumingHTTP: Whether a URL without `://` is `http://`; false for URLs that are
    ///     absolute by construction (a resolved `Location`, where `mailto:x` is not a host).
    /// - Throws: `UploadTargetError` saying what is wrong.
    public init(_ url: String, assumingHTTP: Bool = true) throws(UploadTargetError) {
        let checked = try CheckedURL(url, assumingHTTP: assumingHTTP, schemes: ["http", "https"])
        scheme = checked.scheme
        host = checked.host
        port = checked.port
        let path = checked.components.percentEncodedPath.isEmpty ? "/" : checked.components.percentEncodedPath
        requestTarget = path + (checked.components.percentEncodedQuery.map { "?" + $0 } ?? "")
        self.url = checked.text
        basicCredentials = checked.components.user.map { $0 + ":" + (checked.components.password ?? "") }
    }

    /// The `Host` header value: the host, with the port when it is not the scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        guard let port, port != (scheme == "https" ? 443 : 80) else { return name }
        return "\(name):\(port)"
    }

    public var description: String { url }
}
