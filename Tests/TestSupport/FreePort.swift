#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for servers the tests start.
public enum FreePort {
    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
    public static func find() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard ok else { throw TestFailure("no free port (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits up to 5 s until `pid` (or a process it started) listens on `port`.
    ///
    /// A connection that is accepted proves nothing: another test's server may have taken the
    /// port first (``ListeningSocketOwner``).
    ///
    /// - Parameters:
    ///   - port: The port.
    ///   - pid: The server's process.
    ///   - running: Whether the server is still running (the wait ends early when it is not).
    /// - Returns: Whether the server listens on the port.
    public static func waitUntilListening(port: Int, pid: Int32, while running: () -> Bool) -> Bool {
        for _ in 0..<100 where running() {
            if ListeningSocketOwner.listens(pid: pid, port: port) { return true }
            usleep(50_000)
        }
        return false
    }
}
