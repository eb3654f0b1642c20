import Foundation
import Multipart
import NIOCore
import Synchronization
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadProtocols

/// Progress counts what the server's machine acknowledged, not what the socket's buffer took:
/// `TCPSendQueue` reads `TCP_INFO` as the kernel lays it out (checked against `SIOCOUTQ`), and a
/// transfer to a server that reads slowly never reports more than the server holds.
@Suite("Progress from acknowledged bytes", .serialized, .timeLimit(.minutes(2)))
struct AcknowledgedProgressTests {
    @Test("a TCP_INFO answer too short for the byte counts says nothing; a full one adds not-sent and in-flight bytes")
    func decoding() {
        #expect(TCPSendQueue(tcpInfo: [UInt8](repeating: 0, count: 104)) == nil)
        var info = [UInt8](repeating: 0, count: TCPSendQueue.Layout.size)
        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { info.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        put(UInt64(10_000), at: TCPSendQueue.Layout.bytesAcked)
        put(UInt64(15_500), at: TCPSendQueue.Layout.bytesSent)
        put(UInt64(500), at: TCPSendQueue.Layout.bytesRetransmitted)
        put(UInt32(2_000), at: TCPSendQueue.Layout.notSentBytes)
        #expect(TCPSendQueue(tcpInfo: info)?.unacknowledgedBytes == 7_000)
        #expect(TCPSendQueue(tcpInfo: info)?.acknowledgedBytes == 10_000)
        #expect(TCPSendQueue(tcpInfo: info)?.writtenBytes == 17_000)
    }

    @Test("the unacknowledged bytes read from TCP_INFO are what SIOCOUTQ says, on a connection whose peer does not read")
    func matchesOutputQueue() async throws {
        let server = try StalledReader(receiveBuffer: 16 * 1024)
        let client = try server.connectClient()
        defer { close(client) }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
        var written = 0
        while written < 8 * 1024 * 1024 {
            let count = chunk.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { break }
            written += count
        }
        // The peer's window is closed and stays so: the queue no longer moves.
        try await Task.sleep(for: .milliseconds(200))
        var info = [UInt8](repeating: 0, count: TCPSendQueue.Layout.size)
        var length = socklen_t(info.count)
        #expect(getsockopt(client, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0)
        var outputQueue: Int32 = 0
        #expect(ioctl(client, 0x5411 /* SIOCOUTQ */, &outputQueue) == 0)
        let queue = try #require(TCPSendQueue(tcpInfo: info[..<Int(length)]))
        #expect(outputQueue > 0 && Int(outputQueue) <= written)
        #expect(queue.unacknowledgedBytes == Int64(outputQueue))
    }

    @Test("to a server reading 1 MiB/s, a 3 MiB body never shows more than the server received, then reaches 100 %")
    func neverAheadOfTheServer() async throws {
        let server = try StalledReader(receiveBuffer: 32 * 1024)
        let dir = TemporaryDirectory()
        let path = dir.path("data.bin")
        let bodyLength = 3 * 1024 * 1024
        try TestFile.write([UInt8](repeating: 0x5A, count: bodyLength), to: path)
        let body = RequestBody(segments: [.file(try FileInspector.inspect(path), range: 0..<Int64(bodyLength))],
                               contentType: "application/octet-stream")
        let message = try Self.put(body, port: server.port)
        server.serve(bodyLength: bodyLength, bytesPerSecond: 1024 * 1024)
        let transport = HTTPTransport()
        let outcome = Mutex<Result<UploadResponse, UploadError>?>(nil)
        let task = transport.start(Self.request(message), bodyCompleting: { true },
                                   completion: { result in outcome.withLock { $0 = result } })
        var ahead: [String] = []
        var samples = 0
        while outcome.withLock({ $0 }) == nil {
            let shown = task.bytesWritten
            // Whatever arrived after `shown` was read is only more: the server has at least this.
            let held = server.received
            // Bytes may arrive between the server's reads: at most its receive buffer (doubled by
            // the kernel), and the head is counted by the server and not by the transfer.
            if shown > held + 64 * 1024 { ahead.append("shown \(shown), server had \(held)") }
            samples += 1
            try await Task.sleep(for: .milliseconds(20))
        }
        let timesAhead = ahead.count
        #expect(timesAhead == 0, "\(ahead.prefix(5))")
        #expect(samples >= 5, "the transfer takes about 3 s: it was looked at on the way")
        #expect(try outcome.withLock { $0 }?.get().status == 200)
        #expect(task.bytesWritten == Int64(bodyLength))
        try await transport.shutdown()
    }

    @Test("a server that closes with the whole body in its buffer, unread, resets: the failure says it never had it")
    func resetAfterTheLastByteIsIncompleteAtServer() async throws {
        let server = try StalledReader(receiveBuffer: nil)
        let bodyLength = 48 * 1024
        let body = RequestBody(segments: [.bytes([UInt8](repeating: 0x41, count: bodyLength))], contentType: "application/octet-stream")
        let message = try Self.put(body, port: server.port)
        server.closeUnread(after: .milliseconds(300))
        let transport = HTTPTransport()
        let outcome = Mutex<Result<UploadResponse, UploadError>?>(nil)
        let task = transport.start(Self.request(message), bodyCompleting: { true },
                                   completion: { result in outcome.withLock { $0 = result } })
        while outcome.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }
        _ = task
        let result = try #require(outcome.withLock { $0 })
        guard case let .failure(error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.isIncompleteAtServer, "\(error)")
        #expect(error.isRetryable && !error.mayHaveArrived)
        try await transport.shutdown()
    }

    /// A PUT of `body` to the test's server on `port`.
    static func put(_ body: RequestBody, port: Int) throws -> RequestMessage {
        RequestMessage(method: "PUT", target: try UploadTarget("http://127.0.0.1:\(port)/upload"), headers: [
            HeaderField(name: "Host", value: "127.0.0.1:\(port)"),
            HeaderField(name: "Content-Type", value: body.contentType),
            HeaderField(name: "Content-Length", value: String(body.contentLength)),
        ], body: body)
    }

    /// The transport's request for `message`: job 1's first attempt, 20 s of idleness allowed.
    static func request(_ message: RequestMessage) -> UploadRequest {
        UploadRequest(message: message, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(5), idleTimeout: .seconds(20))
    }
}

/// A listener on 127.0.0.1 with a small receive buffer whose one connection is read, if at all,
/// at a set pace on a thread of its own, counting what it received; it answers 200 once it has
/// read the head and `bodyLength` bytes.
private final class StalledReader: Sendable {
    let port: Int
    private let listener: Int32
    private let receivedBytes = Atomic<Int64>(0)
    private let headLength = Atomic<Int64>(0)

    init(receiveBuffer: Int32?) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        if var size = receiveBuffer {
            setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok, listen(listener, 4) == 0 else { throw TestFailure("cannot listen (errno \(errno))") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Body bytes received so far (the server's reads plus what its kernel holds unread).
    var received: Int64 {
        receivedBytes.load(ordering: .acquiring)
    }

    /// A blocking client socket connected to the listener (loopback: connects at once).
    func connectClient() throws -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestFailure("cannot connect (errno \(errno))") }
        return client
    }

    /// Accepts one connection and reads it at `bytesPerSecond`, on a thread of its own.
    func serve(bodyLength: Int, bytesPerSecond: Int) {
        let listener = listener
        let thread = Thread { [self] in
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            var head: [UInt8] = []
            var bodyRead = 0
            let interval = Double(buffer.count) / Double(bytesPerSecond)
            while bodyRead < bodyLength {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                var slice = buffer[..<count]
                if headLength.load(ordering: .relaxed) == 0 {
                    head += slice
                    guard let end = head.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { continue }
                    headLength.store(Int64(end), ordering: .relaxed)
                    slice = head[end...]
                }
                bodyRead += slice.count
                var unread: Int32 = 0
                _ = ioctl(connection, 0x541B /* FIONREAD */, &unread)
                receivedBytes.store(Int64(bodyRead) + Int64(unread), ordering: .releasing)
                Thread.sleep(forTimeInterval: interval)
            }
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        thread.start()
    }

    /// Accepts one connection, reads nothing for `delay` (the request arrives in its buffer) and
    /// closes it with the bytes unread, which makes the kernel reset it.
    func closeUnread(after delay: Duration) {
        let listener = listener
        let thread = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
            close(connection)
        }
        thread.start()
    }

    deinit {
        close(listener)
    }
}
