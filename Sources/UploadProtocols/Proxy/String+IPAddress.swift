import Glibc

extension String {
    /// Whether the string is an IPv4 or IPv6 address (not a name), as TLS's server name
    /// indication must not carry one.
    package var isIPAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, self, &v4) == 1 || inet_pton(AF_INET6, self, &v6) == 1
    }
}
