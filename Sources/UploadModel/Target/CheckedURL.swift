import FoundationEssentials

/// A URL read the one way Ferry reads every URL it is given — an upload's, a redirect's, a
/// proxy's: trimmed, taken as `http://` when it has no `://` (as curl takes what a user types),
/// parsed by `URLComponents`, with a scheme the caller takes, a host, and a port in range.
package struct CheckedURL {
    /// The URL, with `http://` in front when it was given without a scheme.
    package let text: String
    /// The scheme, in lower case.
    package let scheme: String
    /// The host name or address, without brackets for IPv6.
    package let host: String
    /// The components `URLComponents` read (path, query, percent-decoded user and password).
    package let components: URLComponents

    /// Reads a URL.
    ///
    /// - Parameters:
    ///   - url: The URL as given.
    ///   - assumingHTTP: Whether a URL without `://` is `http://`.
    ///   - schemes: The schemes taken, in lower case.
    /// - Throws: `UploadTargetError` saying what is wrong, in this order: nothing given, not a URL,
    ///   a scheme not taken, no host, a port out of range.
    package init(_ url: String, assumingHTTP: Bool, schemes: Set<String>) throws(UploadTargetError) {
        var trimmed = url.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        if assumingHTTP && !trimmed.contains("://") { trimmed = "http://" + trimmed }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw .notAURL(url)
        }
        guard schemes.contains(scheme) else { throw .unsupportedScheme(scheme, url) }
        guard let host = components.host, !host.isEmpty else { throw .missingHost(url) }
        if let port = components.port, !(1...65_535).contains(port) { throw .badPort(url) }
        text = trimmed
        self.scheme = scheme
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.components = components
    }

    /// The explicit port, if the URL has one.
    package var port: Int? { components.port }
}
