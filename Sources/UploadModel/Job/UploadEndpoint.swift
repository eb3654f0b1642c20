/// Where a job's requests go, as far as a server's answer about credentials or load applies:
/// the origin of the job's URL (scheme, host, port). Jobs for one endpoint pause together
/// (``EndpointPause``); jobs for another go on.
public struct UploadEndpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host, lowercased, without brackets for IPv6.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int

    /// The endpoint of a URL.
    ///
    /// - Parameter url: A job's URL, as `UploadTarget` reads it.
    /// - Returns: Its origin, or nil when the URL cannot make a request (such a job fails on its
    ///   own and never pauses anything).
    public init?(url: String) {
        guard let target = try? UploadTarget(url) else { return nil }
        scheme = target.scheme
        host = target.host.lowercased()
        port = target.port ?? (target.scheme == "https" ? 443 : 80)
    }

    /// The origin as a URL: `https://host`, with the port when it is not the scheme's default.
    ///
    /// - Returns: The text people and `--json` see.
    public var description: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (scheme == "https" ? 443 : 80) ? "\(scheme)://\(name)" : "\(scheme)://\(name):\(port)"
    }

    /// Orders endpoints by scheme, host and port, so lists of them read the same each time.
    ///
    /// - Returns: Whether `lhs` comes first.
    public static func < (lhs: UploadEndpoint, rhs: UploadEndpoint) -> Bool {
        (lhs.scheme, lhs.host, lhs.port) < (rhs.scheme, rhs.host, rhs.port)
    }
}
