import Glibc

/// Ports on 127.0.0.1 for servers the tests start.
public enum FreePort {
    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0, let go).
    public static func find() throws -> Int {
        try RefusingPort().port
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
