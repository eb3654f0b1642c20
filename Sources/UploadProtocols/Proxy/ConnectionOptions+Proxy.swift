import UploadModel

/// Which proxy a request goes through, as curl decides it.
extension ConnectionOptions {
    /// The proxy a request to `target` goes through, or nil when it goes straight to the server:
    /// `httpsProxy` for `https://` targets, `httpProxy` for `http://` ones, none when the host
    /// is in `noProxy`. Pure: nothing is looked up. The interface shows the proxy's `address`
    /// ("via proxy HOST:PORT").
    ///
    /// - Parameter target: The upload URL.
    /// - Returns: The proxy, or nil.
    /// - Throws: `ProxyURLError` when the proxy URL that applies cannot be used.
    public func proxy(for target: UploadTarget) throws(ProxyURLError) -> ProxyServer? {
        try proxy(scheme: target.scheme, host: target.host)
    }

    /// The proxy's `host:port` (never its credentials) that requests to `url` go through: nil
    /// when they go straight to the server, or when `url` or the proxy URL cannot be used (the
    /// request then fails and says why). What the interface shows ("via proxy HOST:PORT").
    ///
    /// - Parameter url: The upload URL.
    /// - Returns: The proxy's address, or nil.
    public func proxyAddress(for url: String) -> String? {
        guard let target = try? UploadTarget(url) else { return nil }
        return (try? proxy(for: target))??.address
    }

    /// The proxy for a request with `scheme` to `host`, or nil.
    ///
    /// - Parameters:
    ///   - scheme: `http` or `https`.
    ///   - host: The server's host name or address.
    /// - Returns: The proxy, or nil.
    /// - Throws: `ProxyURLError` when the proxy URL that applies cannot be used.
    package func proxy(scheme: String, host: String) throws(ProxyURLError) -> ProxyServer? {
        guard let url = scheme == "https" ? httpsProxy : httpProxy, !url.isEmpty, !bypassesProxy(host: host) else {
            return nil
        }
        return try ProxyServer(url: url)
    }

    /// Whether `host` is reached without a proxy: an entry of `noProxy` is `*` (every host), or
    /// names the host itself or, for a host name, a domain it is in (`example.com` and
    /// `.example.com` both cover `a.example.com` and `example.com`). An address matches only
    /// itself. Case does not matter.
    ///
    /// - Parameter host: The server's host name or address.
    /// - Returns: Whether the proxy is bypassed.
    public func bypassesProxy(host: String) -> Bool {
        let host = Self.normalized(host)
        return noProxy.contains { entry in
            let entry = Self.normalized(entry)
            if entry == "*" { return true }
            guard !entry.isEmpty else { return false }
            if host == entry { return true }
            return !host.isIPAddress && !entry.isIPAddress && host.hasSuffix("." + entry)
        }
    }

    /// A host or `no_proxy` entry for comparing: lowercased, without IPv6 brackets, a leading
    /// dot or a trailing one.
    private static func normalized(_ name: String) -> String {
        var name = Substring(name.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.hasPrefix(".") { name = name.dropFirst() }
        if name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }
}
