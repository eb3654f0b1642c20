import Multipart
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTP2
import Synchronization
import Testing
import Glibc
@testable import HTTPUploadTransport
@testable import UploadModel

/// The connection's handlers on NIO's `EmbeddedChannel`: frames read, bytes written, closes and
/// timers in the order a test chooses.
@Suite("Connection handlers on EmbeddedChannel")
struct EmbeddedConnectionTests {
    /// What a watcher told its listener.
    final class Heard: Sendable {
        let events = Mutex<[String]>([])
        var all: [String] { events.withLock { $0 } }
        var listener: HTTP2ConnectionWatcher.Listener {
            .init(goingAway: { self.events.withLock { $0.append("goAway") } },
                  streamCapacityChanged: { capacity in self.events.withLock { $0.append("capacity \(capacity)") } })
        }
    }

    private static func settings(_ values: [(HTTP2SettingsParameter, Int)]) -> HTTP2Frame {
        HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(values.map { HTTP2Setting(parameter: $0.0, value: $0.1) })))
    }

    @Test("a later SETTINGS lowering and raising max concurrent streams reaches the pool; the first makes the connection ready")
    func laterSettings() throws {
        let channel = EmbeddedChannel()
        let ready = channel.eventLoop.makePromise(of: Int.self)
        let heard = Heard()
        let watcher = HTTP2ConnectionWatcher(pooledIdleTimeout: .seconds(60), settingsReceived: ready, listener: heard.listener)
        try channel.pipeline.syncOperations.addHandler(watcher)
        var capacity: Int?
        ready.futureResult.assumeIsolated().whenSuccess { capacity = $0 }
        try channel.writeInbound(Self.settings([(.maxConcurrentStreams, 8), (.initialWindowSize, 65_535)]))
        #expect(capacity == 8)
        try channel.writeInbound(HTTP2Frame(streamID: .rootStream, payload: .settings(.ack)))
        try channel.writeInbound(Self.settings([(.maxConcurrentStreams, 2)]))
        try channel.writeInbound(Self.settings([(.initialWindowSize, 1_000_000)]))
        try channel.writeInbound(Self.settings([(.maxConcurrentStreams, 20)]))
        try channel.writeInbound(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: 5, errorCode: .noError, opaqueData: nil)))
        #expect(heard.all == ["capacity 2", "capacity 20", "goAway"])
        #expect(watcher.goAwayLastStreamID == HTTP2StreamID(5))
        // Every frame is passed on.
        var passed = 0
        while try channel.readInbound(as: HTTP2Frame.self) != nil { passed += 1 }
        #expect(passed == 6)
        _ = try channel.finish()
    }

    @Test("the idle close waits while a stream is open, and comes the idle time after the last closed")
    func idleClose() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        let ready = channel.eventLoop.makePromise(of: Int.self)
        let watcher = HTTP2ConnectionWatcher(pooledIdleTimeout: .seconds(60), settingsReceived: ready, listener: Heard().listener)
        try channel.pipeline.syncOperations.addHandler(watcher)
        try channel.writeInbound(Self.settings([]))
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        watcher.streamOpened(HTTP2StreamID(1))
        channel.embeddedEventLoop.advanceTime(by: .seconds(120))
        #expect(channel.isActive, "a stream is open")
        watcher.streamClosed(HTTP2StreamID(1))
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "closed 60 s after the last stream closed")
    }

    @Test("closed before the first SETTINGS: the connection never becomes ready")
    func closedBeforeSettings() throws {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        let ready = channel.eventLoop.makePromise(of: Int.self)
        let watcher = HTTP2ConnectionWatcher(pooledIdleTimeout: .seconds(60), settingsReceived: ready, listener: Heard().listener)
        try channel.pipeline.syncOperations.addHandler(watcher)
        var failure: (any Error)?
        ready.futureResult.assumeIsolated().whenFailure { failure = $0 }
        try channel.close().wait()
        #expect(failure as? UploadError == .transferFailed(reason: .connectionLost(
            message: "the server closed the HTTP/2 connection before its settings")))
    }

    /// What an exchange reported when it ended.
    final class Ending: Sendable {
        let ended = Mutex<[(ExchangeStateMachine.Outcome, ExchangeStateMachine.ConnectionFate)]>([])
    }

    /// The attempt's cancelled flag.
    final class Flag: Sendable {
        private let value = Atomic(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// An HTTP/1.1 connection on a connected `EmbeddedChannel`, ending with its `ExchangeHandler`.
    private static func http1Connection() throws -> (EmbeddedChannel, PooledConnection) {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        let handler = ExchangeHandler(pooledIdleTimeout: .seconds(60), sendsFileRegions: true)
        try channel.pipeline.syncOperations.addHandler(handler)
        return (channel, PooledConnection(id: .init(value: 1), channel: channel, handler: handler))
    }

    /// A small POST to `/upload` whose end `ending` records.
    private static func request(token: Int, isCancelled: @escaping @Sendable () -> Bool, ending: Ending) throws
        -> ExchangeHandler.Request {
        let body = try MultipartEncoder().prepare(MultipartForm(parts: [.text(name: "a", value: "b")])).requestBody
        return ExchangeHandler.Request(
            token: token, isCancelled: isCancelled,
            head: HTTPRequestHead(version: .http1_1, method: .POST, uri: "/upload", headers: ["Host": "127.0.0.1"]),
            bodyLength: body.contentLength, pump: BodyPump(body: body, chunkSize: 1024, readsSmallBodyNow: true),
            idleTimeout: .seconds(30), wrote: { _ in }, bodyCompleting: { true },
            ended: { outcome, fate, _ in ending.ended.withLock { $0.append((outcome, fate)) } })
    }

    @Test("a cancel that reaches the event loop before the exchange's start is not lost: nothing is sent, the connection stays usable")
    func cancelBeforeStart() throws {
        let (channel, connection) = try Self.http1Connection()
        let cancelled = Flag()
        let ending = Ending()
        let request = try Self.request(token: 7, isCancelled: { cancelled.isSet }, ending: ending)
        // The attempt sees its connection, is cancelled, and its cancel reaches the loop before
        // the start it had handed over.
        cancelled.set()
        connection.cancel(token: 7)
        connection.execute(request)
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: HTTPClientRequestPart.self) == nil, "nothing was sent")
        let ended = ending.ended.withLock { $0 }
        #expect(ended.count == 1)
        if case let .failed(error, beforeResponse)? = ended.first?.0 {
            #expect(error == .transferFailed(reason: .other(message: "cancelled")))
            #expect(beforeResponse)
        } else {
            Issue.record("ended as \(ended)")
        }
        #expect(ended.first?.1 == .reuse)
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test("an exchange started and then cancelled ends cancelled and closes the connection")
    func cancelAfterStart() throws {
        let (channel, connection) = try Self.http1Connection()
        let ending = Ending()
        connection.execute(try Self.request(token: 3, isCancelled: { false }, ending: ending))
        channel.embeddedEventLoop.run()
        guard case let .head(head)? = try channel.readOutbound(as: HTTPClientRequestPart.self) else {
            Issue.record("no head written")
            return
        }
        #expect(head.uri == "/upload")
        connection.cancel(token: 3)
        channel.embeddedEventLoop.run()
        #expect(ending.ended.withLock { $0.count } == 1)
        #expect(ending.ended.withLock { $0.first?.1 } == .close)
        #expect(!channel.isActive)
    }

    @Test("a reset during an HTTP/1.1 exchange fails it as a drop before any response, and closes the connection")
    func resetDuringExchange() throws {
        let (channel, connection) = try Self.http1Connection()
        let ending = Ending()
        connection.execute(try Self.request(token: 5, isCancelled: { false }, ending: ending))
        channel.embeddedEventLoop.run()
        channel.pipeline.fireErrorCaught(IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)"))
        channel.embeddedEventLoop.run()
        let ended = ending.ended.withLock { $0 }
        #expect(ended.count == 1)
        guard case let .failed(.transferFailed, beforeResponse)? = ended.first?.0 else {
            Issue.record("ended as \(ended)")
            return
        }
        #expect(beforeResponse, "a reset before any response byte is a drop the attempt may re-send")
        #expect(ended.first?.1 == .close)
        #expect(!channel.isActive)
    }

    /// An HTTP/2 connection on a connected `EmbeddedChannel` (its preface and SETTINGS already
    /// read out), whose streams end with an `ExchangeHandler`.
    private static func http2Connection() throws -> (EmbeddedChannel, PooledConnection) {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 443)).wait()
        let http2 = NIOHTTP2Handler(mode: .client, eventLoop: channel.eventLoop) { $0.eventLoop.makeSucceededVoidFuture() }
        try channel.pipeline.syncOperations.addHandler(http2)
        let multiplexer = try http2.syncMultiplexer()
        while try channel.readOutbound(as: ByteBuffer.self) != nil {}
        return (channel, PooledConnection(id: .init(value: 2), channel: channel, multiplexer: multiplexer, streamCapacity: 10))
    }

    @Test("HTTP/2: a cancel that reaches the event loop before the exchange's start is not lost: no stream, nothing sent")
    func cancelBeforeStreamStart() throws {
        let (channel, connection) = try Self.http2Connection()
        let cancelled = Flag()
        let ending = Ending()
        let request = try Self.request(token: 9, isCancelled: { cancelled.isSet }, ending: ending)
        cancelled.set()
        connection.cancel(token: 9)
        connection.execute(request)
        channel.embeddedEventLoop.run()
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "nothing was sent")
        let ended = ending.ended.withLock { $0 }
        #expect(ended.count == 1)
        #expect(ended.first?.0 == .failed(.transferFailed(reason: .other(message: "cancelled")), beforeResponse: true))
        #expect(channel.isActive)
        _ = try? channel.finish()
    }

    @Test("HTTP/2: a cancel right after the exchange was handed over ends it cancelled, once; the connection stays open")
    func cancelWhileStreamOpens() throws {
        let (channel, connection) = try Self.http2Connection()
        let ending = Ending()
        connection.execute(try Self.request(token: 4, isCancelled: { false }, ending: ending))
        connection.cancel(token: 4)
        channel.embeddedEventLoop.run()
        let ended = ending.ended.withLock { $0 }
        #expect(ended.count == 1)
        #expect(ended.first?.0 == .failed(.transferFailed(reason: .other(message: "cancelled")), beforeResponse: false))
        #expect(channel.isActive, "a stream's cancel resets the stream, not the connection")
        _ = try? channel.finish()
    }
}
