import Glibc

/// What the `--host` a receiver listens on reaches.
enum ListenAddress {
    /// Whether only this machine can connect to `host`: `localhost`, `127.0.0.0/8`, `::1` or an
    /// IPv4-mapped loopback address. Any other name counts as reachable from the network, since
    /// it may resolve to anything.
    ///
    /// - Parameter host: The address or name given as `--host`.
    /// - Returns: `true` for a loopback address.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }
}
