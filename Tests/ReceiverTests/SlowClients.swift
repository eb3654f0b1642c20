import Foundation
import TestSupport
import Glibc

/// Many connections that each send a request head one byte a second (slowloris), to see the
/// receiver cut them. Blocking calls: use ``run(port:count:for:)`` through ``blocking(_:)``.
enum SlowClients {
    /// What became of the connections.
    struct Outcome: Sendable {
        /// Connections opened.
        let opened: Int
        /// Connections the receiver closed (EOF, reset, or a 408) before the end.
        let cut: Int
        /// Connections that got a 408.
        let answered408: Int
    }

    /// Opens `count` connections to `127.0.0.1:port` and trickles a head on each, one byte a
    /// second, until every one is cut or `seconds` pass.
    ///
    /// - Parameters:
    ///   - port: The receiver's port.
    ///   - count: How many connections.
    ///   - seconds: The longest to keep going.
    /// - Returns: How many were opened and cut.
    static func run(port: Int, count: Int, for seconds: Double) throws -> Outcome {
        let head = Array("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 4096)
        var sockets: [Int32] = []
        defer { sockets.forEach { if $0 >= 0 { close($0) } } }
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket() failed, errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else {
                close(descriptor)
                throw TestFailure("connect() failed after \(sockets.count) connections, errno \(errno)")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            sockets.append(descriptor)
        }
        var open = Array(repeating: true, count: count)
        var answered = 0
        var position = 0
        let deadline = Date().addingTimeInterval(seconds)
        while open.contains(true), Date() < deadline, position < head.count {
            for index in sockets.indices where open[index] {
                var buffer = [UInt8](repeating: 0, count: 512)
                let received = recv(sockets[index], &buffer, buffer.count, 0)
                if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    open[index] = false
                    continue
                }
                if received > 0 {
                    if String(decoding: buffer[..<received], as: UTF8.self).contains(" 408 ") { answered += 1 }
                    open[index] = false
                    continue
                }
                let sent = head[position...].withUnsafeBytes { send(sockets[index], $0.baseAddress!, 1, Int32(MSG_NOSIGNAL)) }
                if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK { open[index] = false }
            }
            position += 1
            Thread.sleep(forTimeInterval: 1)
        }
        return Outcome(opened: count, cut: open.filter { !$0 }.count, answered408: answered)
    }
}
