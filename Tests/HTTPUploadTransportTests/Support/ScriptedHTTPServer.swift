import Foundation
import Synchronization
import TestSupport
import Glibc

/// A deterministic HTTP/1.1 server on raw sockets (blocking POSIX calls, a thread per
/// connection) that misbehaves on purpose the way real servers do around a connection's end. It
/// counts, per uploaded file name, how many requests it processed, so a test sees duplicates.
final class ScriptedHTTPServer: Sendable {
    /// What the server does with each connection.
    enum Behaviour: Sendable, Equatable {
        /// Reads each request whole, answers 200 and keeps the connection open.
        case keepAlive
        /// Reads the request whole, answers 200 (without `Connection: close`) and closes at once.
        case answerAndClose
        /// Answers `status` with `Connection: close` as soon as the head has arrived, before
        /// reading the body, then closes (after reading what the client still sends).
        case rejectBeforeBody(status: Int)
        /// Answers the first request on a connection and keeps it open; when the next request's
        /// first bytes arrive, closes it without reading or answering them (its idle timer fired
        /// just then; the kernel resets the connection, as it does for a socket closed unread).
        case closeIdleOnReuse
        /// Answers the first request on a connection and keeps it open; reads the next request
        /// whole (counted in `swallowed`, not `processed`) and closes without answering: a server
        /// that may have stored it, so the client must not send it again by itself.
        case swallowOnReuse
        /// Reads each request whole, answers 200 with `Keep-Alive: timeout=N` and keeps the
        /// connection open.
        case keepAliveHint(seconds: Int)
        /// Answers `limit` requests per connection, the last with `Connection: close`, then
        /// closes (nginx's `keepalive_requests`).
        case requestsPerConnection(Int)
    }

    private struct State: Sendable {
        var behaviour: Behaviour
        var processed: [String: Int] = [:]
        var swallowed: [String: Int] = [:]
        var answered = 0
        var connections = 0
        var clientSockets: Set<Int32> = []
        var stopped = false
        var listenerOpen = true
    }

    /// The URL to upload to.
    let url: String
    private let listener: Int32
    private let state: Mutex<State>

    /// Starts a server on a free port of 127.0.0.1.
    ///
    /// - Parameter behaviour: What it does with connections (changeable with `behave`).
    init(_ behaviour: Behaviour) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("the scripted server cannot open its socket (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 512) == 0 else { throw TestFailure("the scripted server cannot open its socket (errno \(errno))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        listener = socket
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/upload"
        state = Mutex(State(behaviour: behaviour))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Changes what the server does with new requests.
    func behave(_ behaviour: Behaviour) {
        state.withLock { $0.behaviour = behaviour }
    }

    /// How many times each file name was processed (its request read whole and answered 2xx).
    var processed: [String: Int] { state.withLock { $0.processed } }
    /// How many times each file name was read whole and then closed on unanswered (`swallowOnReuse`).
    var swallowed: [String: Int] { state.withLock { $0.swallowed } }
    /// How many responses of any status were sent.
    var answered: Int { state.withLock { $0.answered } }
    /// How many connections were accepted.
    var connections: Int { state.withLock { $0.connections } }

    /// Stops the listener and every connection.
    ///
    /// Only shuts them down, under the lock their threads close them under: the accept loop
    /// closes the listener once `accept` fails, each connection's thread closes its socket. A
    /// descriptor closed here could be reused at once by another test's socket, which the loop's
    /// next `accept` or a late `shutdown` would then take down (whole-suite runs lost raw
    /// connections of other tests so).
    func stop() {
        state.withLock { state in
            state.stopped = true
            if state.listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
            for socket in state.clientSockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: Serving

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR, !state.withLock({ $0.stopped }) { continue }
                closeListener()
                return
            }
            let admitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.connections += 1
                state.clientSockets.insert(client)
                return true
            }
            guard admitted else {
                close(client)
                closeListener()
                return
            }
            let thread = Thread { [self] in
                serve(client)
                state.withLock { state in
                    state.clientSockets.remove(client)
                    close(client)
                }
            }
            thread.start()
        }
    }

    /// Closes the listening socket, once, under the lock `stop()` shuts it down under.
    private func closeListener() {
        state.withLock { state in
            guard state.listenerOpen else { return }
            state.listenerOpen = false
            close(listener)
        }
    }

    private func serve(_ client: Int32) {
        var reader = SocketReader(socket: client)
        var served = 0
        while true {
            if state.withLock({ $0.behaviour }) == .closeIdleOnReuse, served > 0 {
                // The next request's bytes arrived: "the idle timer fired", close with them unread.
                var readable = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                _ = poll(&readable, 1, -1)
                return
            }
            guard let head = reader.readHead() else { return }
            let behaviour = state.withLock { $0.behaviour }
            let length = Self.contentLength(head)
            if case let .rejectBeforeBody(status) = behaviour {
                send(client, status: status, close: true)
                shutdown(client, Int32(SHUT_WR))
                reader.drain()
                return
            }
            guard let body = reader.read(count: length) else { return }
            let name = Self.filename(in: body) ?? "?"
            if behaviour == .swallowOnReuse, served > 0 {
                state.withLock { $0.swallowed[name, default: 0] += 1 }
                return
            }
            state.withLock { $0.processed[name, default: 0] += 1 }
            served += 1
            switch behaviour {
            case .keepAlive, .closeIdleOnReuse, .swallowOnReuse, .rejectBeforeBody:
                send(client, status: 200, close: false)
            case let .keepAliveHint(seconds):
                send(client, status: 200, close: false, extraHeader: "Keep-Alive: timeout=\(seconds)")
            case .answerAndClose:
                send(client, status: 200, close: false)
                return
            case let .requestsPerConnection(limit):
                send(client, status: 200, close: served >= limit)
                if served >= limit { return }
            }
        }
    }

    private func send(_ client: Int32, status: Int, close: Bool, extraHeader: String? = nil) {
        let body = "{\"status\":\(status)}"
        var text = "HTTP/1.1 \(status) Scripted\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        if close { text += "Connection: close\r\n" }
        if let extraHeader { text += extraHeader + "\r\n" }
        text += "\r\n" + body
        let bytes = Array(text.utf8)
        state.withLock { $0.answered += 1 }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    private static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    private static func filename(in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "filename=\"") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(text[start.upperBound..<end])
    }
}

/// Buffered reads from a blocking socket: a request head, then a body of known length.
struct SocketReader {
    let socket: Int32
    private var buffer: [UInt8] = []

    init(socket: Int32) {
        self.socket = socket
    }

    /// The next request head (up to the blank line), or nil when the peer closed.
    mutating func readHead() -> String? {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard fill() else { return nil }
        }
    }

    /// Exactly `count` bytes, or nil when the peer closed first.
    mutating func read(count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Reads and discards until the peer closes.
    mutating func drain() {
        while fill() { buffer.removeAll(keepingCapacity: true) }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
}
