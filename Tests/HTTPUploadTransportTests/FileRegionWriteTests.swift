import Foundation
import Multipart
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Synchronization
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// An exchange's body writes on NIO's `NIOAsyncTestingChannel` (the thread-safe `EmbeddedChannel`:
/// the body is read on the pump's queue): on plain HTTP/1.1 a large file goes as file regions,
/// its last bytes as a buffer; where the handlers need the bytes (TLS, HTTP/2 streams) every write
/// is a buffer. Every write is held until the test lets it complete, so a test acts between two.
/// Alone the suite takes half a second; in the whole run each of its 1 ms waits waits for a turn
/// of the cooperative threads every test shares, which can add up to more than a minute: its
/// limit is three.
@Suite("Body writes: file regions on plain HTTP/1.1, buffers over TLS", .timeLimit(.minutes(3)))
struct FileRegionWriteTests {
    /// Holds the promise of every write that reaches it (the socket's side) until `complete`.
    final class HeldWrites: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = IOData
        typealias OutboundOut = IOData

        private let held = Mutex<[EventLoopPromise<Void>]>([])

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            context.write(data, promise: nil)
            if let promise { held.withLock { $0.append(promise) } }
        }

        /// Completes the writes held: as the socket took them, or as a closed socket fails them.
        func complete(failing: Bool = false) {
            for promise in held.withLock({ held in defer { held = [] }; return held }) {
                if failing { promise.fail(ChannelError.ioOnClosedChannel) } else { promise.succeed() }
            }
        }
    }

    /// What the exchange reported when it ended.
    final class Ending: Sendable {
        let outcome = Mutex<ExchangeStateMachine.Outcome?>(nil)
    }

    /// A 1 MiB file whose bytes count up modulo 251, removed when released.
    final class TemporaryFile: Sendable {
        let path: String
        let contents: Data

        init() throws {
            path = NSTemporaryDirectory() + "ferry-region-\(UUID().uuidString).bin"
            contents = Data((0..<(1024 * 1024)).map { UInt8($0 % 251) })
            try contents.write(to: URL(fileURLWithPath: path))
        }

        func append(_ byte: UInt8) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([byte]))
            try handle.close()
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    private static let opening = Array("--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n".utf8)
    private static let closing = Array("\r\n--b--\r\n".utf8)
    private static let chunkSize = 64 * 1024

    /// A multipart-shaped body around the file's whole content.
    private static func body(_ file: TemporaryFile) throws -> RequestBody {
        RequestBody(segments: [.bytes(opening), .wholeFile(try FileInspector.inspect(file.path)), .bytes(closing)],
                    contentType: "multipart/form-data; boundary=b")
    }

    /// The exchange's connection, started on `body`.
    private struct Exchange {
        let channel: NIOAsyncTestingChannel
        let connection: PooledConnection
        let held: HeldWrites
        let ending: Ending
    }

    /// An HTTP/1.1 connection (NIO's encoder and decoder, `ExchangeHandler`) running `body`.
    private static func start(_ body: RequestBody, sendsFileRegions: Bool) async throws -> Exchange {
        let channel = NIOAsyncTestingChannel()
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).get()
        let held = HeldWrites()
        let connection = try await channel.testingEventLoop.executeInContext {
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(held)
            try operations.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
            let handler = ExchangeHandler(pooledIdleTimeout: .seconds(60), sendsFileRegions: sendsFileRegions)
            try operations.addHandler(handler)
            return PooledConnection(id: .init(value: 1), channel: channel, handler: handler)
        }
        let ending = Ending()
        connection.execute(ExchangeHandler.Request(
            token: 1, isCancelled: { false },
            head: HTTPRequestHead(version: .http1_1, method: .POST, uri: "/upload",
                                  headers: ["Host": "127.0.0.1", "Content-Length": "\(body.contentLength)"]),
            bodyLength: body.contentLength, pump: BodyPump(body: body, chunkSize: chunkSize, readsSmallBodyNow: false),
            idleTimeout: .seconds(30), wrote: { _ in }, bodyCompleting: { true },
            ended: { outcome, _, _ in ending.outcome.withLock { $0 = outcome } }))
        return Exchange(channel: channel, connection: connection, held: held, ending: ending)
    }

    /// The body's writes (the head's left out), each completed once read, until `stop` says so
    /// or the exchange ended.
    private static func writes(of exchange: Exchange, until stop: ([IOData]) -> Bool) async throws -> [IOData] {
        var writes: [IOData] = []
        var headSeen = false
        while !stop(writes), exchange.ending.outcome.withLock({ $0 == nil }) {
            if let data = try await exchange.channel.readOutbound(as: IOData.self) {
                if headSeen { writes.append(data) } else { headSeen = true }
                continue
            }
            exchange.held.complete()
            try await Task.sleep(for: .milliseconds(1))
        }
        return writes
    }

    /// The bytes `writes` put on the wire, a region's read from `file`.
    private static func bytes(of writes: [IOData], file: TemporaryFile) -> [UInt8] {
        writes.flatMap { data -> [UInt8] in
            switch data {
            case let .byteBuffer(buffer): return Array(buffer.readableBytesView)
            case let .fileRegion(region): return Array(file.contents[region.readerIndex..<region.endIndex])
            }
        }
    }

    private static func regions(_ writes: [IOData]) -> [FileRegion] {
        writes.compactMap { data in
            if case let .fileRegion(region) = data { return region }
            return nil
        }
    }

    /// Answers 200 and waits for the exchange's end.
    private static func answer(_ exchange: Exchange) async throws -> ExchangeStateMachine.Outcome? {
        try await exchange.channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))
        return try await ended(exchange)
    }

    private static func ended(_ exchange: Exchange) async throws -> ExchangeStateMachine.Outcome? {
        for _ in 0..<2_000 {
            if let outcome = exchange.ending.outcome.withLock({ $0 }) { return outcome }
            exchange.held.complete()
            try await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    @Test("plain HTTP/1.1: the file's middle goes as file regions, its last chunk and the parts' bytes as buffers; every region's descriptor is closed")
    func plainHTTPSendsRegions() async throws {
        let file = try TemporaryFile()
        let body = try Self.body(file)
        let exchange = try await Self.start(body, sendsFileRegions: true)
        let expected = Self.opening + Array(file.contents) + Self.closing
        let writes = try await Self.writes(of: exchange) { $0.reduce(0) { $0 + $1.readableBytes } >= expected.count }
        #expect(Self.bytes(of: writes, file: file) == expected)
        let regions = Self.regions(writes)
        #expect(regions.first?.readerIndex == 0)
        #expect(regions.last?.endIndex == file.contents.count - Self.chunkSize, "the last chunk is read, not a region")
        #expect(regions.count >= 2)
        guard case let .byteBuffer(last)? = writes.last, case let .byteBuffer(tail)? = writes.dropLast().last else {
            Issue.record("the body does not end with buffers: \(writes.suffix(2))")
            return
        }
        #expect(Array(last.readableBytesView) == Self.closing)
        #expect(tail.readableBytes == Self.chunkSize)
        guard case let .response(response)? = try await Self.answer(exchange) else {
            Issue.record("no response")
            return
        }
        #expect(response.status == 200)
        #expect(regions.allSatisfy { !$0.fileHandle.isOpen })
        _ = try await exchange.channel.finish(acceptAlreadyClosed: true)
    }

    @Test("where the handlers need the bytes (TLS, an HTTP/2 stream): the same body as buffers only")
    func buffersWithoutRegions() async throws {
        let file = try TemporaryFile()
        let exchange = try await Self.start(try Self.body(file), sendsFileRegions: false)
        let expected = Self.opening + Array(file.contents) + Self.closing
        let writes = try await Self.writes(of: exchange) { $0.reduce(0) { $0 + $1.readableBytes } >= expected.count }
        #expect(Self.bytes(of: writes, file: file) == expected)
        #expect(Self.regions(writes).isEmpty)
        #expect(writes.count > 1, "in chunks")
        guard case .response? = try await Self.answer(exchange) else {
            Issue.record("no response")
            return
        }
        _ = try await exchange.channel.finish(acceptAlreadyClosed: true)
    }

    @Test("a file that grew while it was sent fails the body with the same reason either way, before its last bytes go out",
          arguments: [true, false])
    func fileChangedMidSend(sendsFileRegions: Bool) async throws {
        let file = try TemporaryFile()
        let body = try Self.body(file)
        let exchange = try await Self.start(body, sendsFileRegions: sendsFileRegions)
        // The first write of the file's bytes, then the file grows.
        var writes = try await Self.writes(of: exchange) { $0.count >= 2 }
        try file.append(7)
        writes += try await Self.writes(of: exchange) { _ in false }
        let outcome = try await Self.ended(exchange)
        guard case let .failed(error, beforeResponse)? = outcome else {
            Issue.record("ended as \(String(describing: outcome))")
            return
        }
        let size = Int64(file.contents.count)
        #expect(error == .multipartFailed(.fileChanged(path: file.path, reason: .grew(expected: size, actual: size + 1))))
        #expect(!beforeResponse)
        #expect(writes.reduce(0) { $0 + $1.readableBytes } < body.contentLength - Int64(Self.closing.count))
        #expect(Self.regions(writes).allSatisfy { !$0.fileHandle.isOpen })
        #expect(!exchange.channel.isActive, "the connection closed")
    }

    @Test("a cancel while a region is being written closes the connection; the region's descriptor is closed when its write fails")
    func cancelDuringRegion() async throws {
        let file = try TemporaryFile()
        let exchange = try await Self.start(try Self.body(file), sendsFileRegions: true)
        _ = try await exchange.channel.waitForOutboundWrite(as: IOData.self) // the head
        guard case let .byteBuffer(opening) = try await exchange.channel.waitForOutboundWrite(as: IOData.self) else {
            Issue.record("the part's header is not a buffer")
            return
        }
        #expect(Array(opening.readableBytesView) == Self.opening)
        exchange.held.complete() // the header's write only: the region follows it
        guard case let .fileRegion(region) = try await exchange.channel.waitForOutboundWrite(as: IOData.self) else {
            Issue.record("the file's first write is not a region")
            return
        }
        exchange.connection.cancel(token: 1)
        try await exchange.channel.testingEventLoop.executeInContext {}
        #expect(!exchange.channel.isActive)
        guard case let .failed(error, _)? = exchange.ending.outcome.withLock({ $0 }) else {
            Issue.record("did not end")
            return
        }
        #expect(error == .transferFailed(reason: .other(message: "cancelled")))
        #expect(region.fileHandle.isOpen, "still queued")
        exchange.held.complete(failing: true)
        try await exchange.channel.testingEventLoop.executeInContext {}
        #expect(!region.fileHandle.isOpen)
    }
}
