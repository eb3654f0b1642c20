import Foundation
import Synchronization
import TestSupport
import Glibc

/// A plain TCP connection to the receiver for sending hand-made HTTP bytes: malformed and
/// truncated bodies, half-closed connections, `Expect: 100-continue`.
///
/// Every call blocks, so each runs through ``blocking(_:)``. The socket and the bytes read
/// but not yet consumed live in a `Mutex`, which makes the type `Sendable`.
final class RawHTTPConnection: Sendable {
    /// A parsed HTTP response (or interim response).
    struct Response: Sendable {
        /// The status code.
        let status: Int
        /// The header block, lines joined with CRLF.
        let head: String
        /// The body (per `Content-Length`).
        let body: String
    }

    private struct State {
        var descriptor: Int32
        var buffered: [UInt8] = []
    }

    private let state: Mutex<State>

    private init(descriptor: Int32) {
        state = Mutex(State(descriptor: descriptor))
    }

    /// Connects to `127.0.0.1:port` and sends `first` at once, on the same thread.
    ///
    /// Against a receiver whose header timeout is about a second, a separate ``send(_:)`` after
    /// the connect can come too late on a loaded test runner (the task waits for a free thread
    /// of the concurrency pool in between), and the receiver then rightly closes a connection
    /// that said nothing. Sending in the same call keeps the gap to microseconds.
    ///
    /// - Parameters:
    ///   - port: The receiver's port.
    ///   - first: Bytes to send as soon as the connection is up (none by default).
    /// - Returns: The connection.
    static func connect(port: Int, sending first: [UInt8] = []) async throws -> RawHTTPConnection {
        try await blocking {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket() failed, errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                Glibc.close(descriptor)
                throw TestFailure("connect() to port \(port) failed, errno \(errno)")
            }
            let connection = RawHTTPConnection(descriptor: descriptor)
            try connection.sendNow(first)
            return connection
        }
    }

    /// Sends bytes (all of them).
    ///
    /// - Parameter bytes: What to send.
    func send(_ bytes: [UInt8]) async throws {
        try await blocking { try self.sendNow(bytes) }
    }

    /// Sends bytes (all of them) on the calling thread.
    private func sendNow(_ bytes: [UInt8]) throws {
        try state.withLock { state in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(state.descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw TestFailure("send() failed, errno \(errno)")
                }
                offset += sent
            }
        }
    }

    /// Sends a string as UTF-8.
    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Half-closes: the receiver sees the end of the request stream, the response can still come.
    func shutdownWrite() async throws {
        try await blocking {
            self.state.withLock { _ = Glibc.shutdown($0.descriptor, Int32(SHUT_WR)) }
        }
    }

    /// Closes the connection at once, with unsent state discarded (RST via `SO_LINGER` 0).
    func abort() async throws {
        try await blocking {
            self.state.withLock { state in
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                _ = setsockopt(state.descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                Glibc.close(state.descriptor)
                state.descriptor = -1
            }
        }
    }

    /// The connection's local port (what the receiver sees as the peer's port).
    var localPort: Int {
        state.withLock { state in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(state.descriptor, $0, &length) }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    /// Closes the connection normally.
    func close() {
        state.withLock { state in
            if state.descriptor >= 0 { Glibc.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// Reads one response: its head, then a `Content-Length` body.
    ///
    /// - Parameter timeout: Seconds to wait for data before giving up.
    /// - Returns: The response, or `nil` when the connection ended (or timed out) before a full head.
    func readResponse(timeout: Double = 10) async throws -> Response? {
        try await blocking {
            try self.state.withLock { state -> Response? in
                guard let headEnd = try Self.fill(&state, timeout: timeout, until: { Self.find([13, 10, 13, 10], in: $0) }) else {
                    return nil
                }
                let head = String(decoding: state.buffered[..<headEnd], as: UTF8.self)
                state.buffered.removeFirst(headEnd + 4)
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                var length = 0
                for line in head.split(separator: "\r\n") {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        length = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
                if (100..<200).contains(status) { length = 0 }
                _ = try Self.fill(&state, timeout: timeout, until: { $0.count >= length ? length : nil })
                let bodyLength = min(length, state.buffered.count)
                let body = String(decoding: state.buffered[..<bodyLength], as: UTF8.self)
                state.buffered.removeFirst(bodyLength)
                return Response(status: status, head: head, body: body)
            }
        }
    }

    /// Waits until the receiver closes the connection.
    ///
    /// - Parameter timeout: Seconds to wait.
    /// - Returns: `true` if the connection ended (EOF or reset) within `timeout` with no further
    ///   bytes, `false` if bytes arrived or it stayed open.
    func waitForClose(timeout: Double) async throws -> (closed: Bool, bytes: [UInt8]) {
        try await blocking {
            self.state.withLock { state in
                var received: [UInt8] = state.buffered
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline {
                    let result = Self.receive(&state, timeout: deadline.timeIntervalSinceNow)
                    switch result {
                    case .data(let bytes): received += bytes
                    case .closed: return (true, received)
                    case .timedOut: return (false, received)
                    }
                }
                return (false, received)
            }
        }
    }

    deinit {
        close()
    }

    private enum ReceiveResult {
        case data([UInt8])
        case closed
        case timedOut
    }

    private static func receive(_ state: inout State, timeout: Double) -> ReceiveResult {
        guard state.descriptor >= 0 else { return .closed }
        var descriptor = pollfd(fd: state.descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout) * 1000))
        if ready == 0 { return .timedOut }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(state.descriptor, &chunk, chunk.count, 0)
        if count <= 0 { return .closed }
        return .data(Array(chunk[..<count]))
    }

    /// Reads until `until` finds what it wants in the buffer; returns its answer or `nil` on EOF/timeout.
    private static func fill(_ state: inout State, timeout: Double, until: ([UInt8]) -> Int?) throws -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let found = until(state.buffered) { return found }
            switch receive(&state, timeout: deadline.timeIntervalSinceNow) {
            case .data(let bytes): state.buffered += bytes
            case .closed, .timedOut: return until(state.buffered)
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
