import Foundation
import Glibc
import Synchronization

/// A port of 127.0.0.1 held for a whole test: it first stalls every connection (accepts it and
/// reads nothing, so a client stays mid-body), and once told ``relay(to:)`` it relays the
/// connections that come after to a server. A client's second run then finds its URL answered
/// again without the port being let go in between, which another test's server could take.
///
/// Each relayed connection copies bytes both ways on two threads of its own (blocking copies:
/// a slow side holds the other back). ``close()`` ends every connection.
public final class RelayPort: Sendable {
    private struct State {
        /// Where new connections are relayed; nil while they stall.
        var target: Int?
        /// The stalled connections, closed by ``close()``.
        var stalled: [Int32] = []
        /// The descriptors of the relayed connections still open, shut by ``close()`` (their
        /// copying threads close them, taking them out of here first).
        var relayed: Set<Int32> = []
        var closed = false
    }

    /// How many of a relayed connection's two copies have ended.
    private final class CopyEnds: Sendable {
        let count = Atomic<Int>(0)
    }

    /// The port.
    public let port: Int
    private let listener: Int32
    private let state = Mutex(State())

    /// Listens on a port the kernel chooses; connections stall until ``relay(to:)``. **Must** be
    /// closed (``close()``) when the test is done: the accepting thread holds it until then.
    ///
    /// - Throws: When no port can be listened on.
    public init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard ok, listen(socket, 16) == 0 else {
            let error = errno
            Glibc.close(socket)
            throw TestFailure("no port to relay on (errno \(error))")
        }
        listener = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptConnections() }.start()
    }

    /// The base URL of the port, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Relays the connections accepted from now on to `port` on 127.0.0.1 (those that stall
    /// stay stalled).
    ///
    /// - Parameter port: The server's port.
    public func relay(to port: Int) {
        state.withLock { $0.target = port }
    }

    /// Stops listening and ends every connection. Safe to call more than once.
    public func close() {
        let stalled = state.withLock { state -> [Int32] in
            guard !state.closed else { return [] }
            state.closed = true
            // Wakes the copying threads, which close their descriptors.
            for descriptor in state.relayed { shutdown(descriptor, Int32(SHUT_RDWR)) }
            defer { state.stalled = [] }
            return state.stalled
        }
        for descriptor in stalled { Glibc.close(descriptor) }
        // Wakes the accepting thread, which closes the listener.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptConnections() {
        defer { Glibc.close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            let (closed, target) = state.withLock { ($0.closed, $0.target) }
            guard !closed else {
                Glibc.close(client)
                return
            }
            guard let target else {
                state.withLock { $0.stalled.append(client) }
                continue
            }
            let server = Self.connect(port: target)
            guard server >= 0 else {
                Glibc.close(client)
                continue
            }
            state.withLock { $0.relayed.formUnion([client, server]) }
            let ends = CopyEnds()
            let finish: @Sendable () -> Void = { [self] in
                guard ends.count.add(1, ordering: .acquiringAndReleasing).newValue == 2 else { return }
                state.withLock { $0.relayed.subtract([client, server]) }
                Glibc.close(client)
                Glibc.close(server)
            }
            Thread {
                Self.copy(from: client, to: server)
                finish()
            }.start()
            Thread {
                Self.copy(from: server, to: client)
                finish()
            }.start()
        }
    }
    /// Copies until `source` ends or fails, then ends the other side's writing.
    private static func copy(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var written = 0
            while written < count {
                let result = buffer[written..<count].withUnsafeBytes { write(destination, $0.baseAddress, $0.count) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { break copying }
                written += result
            }
        }
        shutdown(destination, Int32(SHUT_WR))
    }

    private static func connect(port: Int) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            Glibc.close(socket)
            return -1
        }
        return socket
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
