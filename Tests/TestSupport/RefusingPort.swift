import Glibc

/// A port of 127.0.0.1 that refuses connections for as long as this value lives: a socket bound to
/// it and never listening holds it, so no other test's server can take it meanwhile (a port found
/// free and let go could be listened on by the time a test connects to it).
public final class RefusingPort: Sendable {
    /// The port.
    public let port: Int
    private let socket: Int32

    /// Binds a socket to a port the kernel chooses, without listening.
    ///
    /// - Throws: When no port can be bound.
    public init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard ok else {
            let error = errno
            close(socket)
            throw TestFailure("no port to hold (errno \(error))")
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts listening on the port without ever accepting: the kernel then completes
    /// connections and takes their bytes until its buffers are full, so a client stays mid-body.
    /// The port no longer refuses.
    ///
    /// - Throws: When the socket cannot listen.
    public func listenWithoutAccepting() throws {
        guard listen(socket, 4) == 0 else { throw TestFailure("the held port cannot listen (errno \(errno))") }
    }

    deinit {
        close(socket)
    }
}
