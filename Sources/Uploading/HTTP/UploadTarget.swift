import Foundation

/// A checked upload URL: `http` or `https`, a host, an optional port, a path and query.
public struct UploadTarget: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host name or address, without brackets for IPv6.
    public let host: String
    /// The explicit port, if the URL has one.
    public let port: Int?
    /// The request target: path (at least `/`) and `?query`, as written in the URL.
    public let requestTarget: String
    /// The URL as given.
    public let url: String

    /// Checks a URL.
    ///
    /// - Parameter url: An absolute `http://` or `https://` URL.
    /// - Throws: `UploadTargetError` saying what is wrong.
    public init(_ url: String) throws(UploadTargetError) {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .empty }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw .notAURL(url)
        }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme, url) }
        guard let host = components.host, !host.isEmpty else { throw .missingHost(url) }
        if let port = components.port, !(1...65_535).contains(port) { throw .badPort(url) }
        self.scheme = scheme
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        self.requestTarget = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        self.url = trimmed
    }

    /// The `Host` header value: the host, with the port when it is not the scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        guard let port, port != (scheme == "https" ? 443 : 80) else { return name }
        return "\(name):\(port)"
    }

    public var description: String { url }
}
