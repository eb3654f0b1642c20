import NIOCore
import NIOHTTP2

/// Sits behind `NIOHTTP2Handler` on an HTTP/2 connection and tells the pool what the connection
/// frames say about it: the server's first SETTINGS (how many streams it takes at once: the
/// connection is ready then), its GOAWAY (the connection takes no new streams; streams above its
/// last stream ID were not processed), and closes the connection when no stream has been open for
/// the pool's idle time.
///
/// NIO's inline stream multiplexer does not pass streams' creation and closing down the pipeline;
/// it tells the `NIOHTTP2StreamDelegate` given to `configureHTTP2Pipeline`, which
/// `HTTP2StreamEvents` forwards to `streamOpened` and `streamClosed` here.
///
/// Every method runs on the channel's event loop.
final class HTTP2ConnectionWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame

    /// The most streams Ferry opens on one connection, whatever the server allows.
    static let maximumStreams = 100

    private let settingsReceived: EventLoopPromise<Int>
    private let goingAway: @Sendable () -> Void
    private let pooledIdleTimeout: TimeAmount
    private var openStreams: Set<HTTP2StreamID> = []

    /// The last stream the server may have processed, once it sent GOAWAY (it sees the frame
    /// before the streams it drops hear that they closed, so an `ExchangeHandler` can ask).
    private(set) var goAwayLastStreamID: HTTP2StreamID?
    private var idleClose: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// Creates the watcher.
    ///
    /// - Parameters:
    ///   - pooledIdleTimeout: How long the connection may carry no stream before it closes.
    ///   - settingsReceived: Succeeded with the stream capacity (the server's
    ///     `SETTINGS_MAX_CONCURRENT_STREAMS`, at most `maximumStreams`) at the server's first
    ///     SETTINGS; failed if the connection closes before.
    ///   - goingAway: Called when the server sends GOAWAY.
    init(pooledIdleTimeout: TimeAmount, settingsReceived: EventLoopPromise<Int>, goingAway: @escaping @Sendable () -> Void) {
        self.pooledIdleTimeout = pooledIdleTimeout
        self.settingsReceived = settingsReceived
        self.goingAway = goingAway
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        scheduleIdleClose()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleClose?.cancel()
        self.context = nil
    }

    /// A stream was created: the connection is not idle until every stream has closed.
    func streamOpened(_ id: HTTP2StreamID) {
        openStreams.insert(id)
        idleClose?.cancel()
        idleClose = nil
    }

    /// A stream closed; the idle time starts when it was the last one open.
    func streamClosed(_ id: HTTP2StreamID) {
        if openStreams.remove(id) != nil, openStreams.isEmpty { scheduleIdleClose() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case let .settings(.settings(settings)):
            let advertised = settings.last { $0.parameter == .maxConcurrentStreams }?.value ?? Self.maximumStreams
            settingsReceived.succeed(max(1, min(Self.maximumStreams, advertised)))
        case let .goAway(lastStreamID, _, _):
            goAwayLastStreamID = min(goAwayLastStreamID ?? lastStreamID, lastStreamID)
            goingAway()
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleClose?.cancel()
        settingsReceived.fail(UploadError.transferFailed(reason: .connectionLost(
            message: "the server closed the HTTP/2 connection before its settings")))
        context.fireChannelInactive()
    }

    private func scheduleIdleClose() {
        idleClose?.cancel()
        guard let context else { return }
        let channel = context.channel
        idleClose = context.eventLoop.scheduleTask(in: pooledIdleTimeout) { channel.close(promise: nil) }
    }
}
