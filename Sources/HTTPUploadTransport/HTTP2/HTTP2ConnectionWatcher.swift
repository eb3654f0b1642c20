import NIOCore
import NIOHTTP2
import UploadModel

/// Sits behind `NIOHTTP2Handler` on an HTTP/2 connection and carries out what
/// `HTTP2ConnectionStateMachine` makes of the connection's frames and streams: the server's
/// first SETTINGS make the connection ready (with how many streams it takes at once), a later
/// SETTINGS that changes that tells the pool, GOAWAY tells the pool the connection takes no new
/// streams (streams above its last stream ID were not processed), and the connection closes when
/// no stream has been open for the pool's idle time.
///
/// NIO's inline stream multiplexer does not pass streams' creation and closing down the pipeline;
/// it tells the `NIOHTTP2StreamDelegate` given to `configureHTTP2Pipeline`, which
/// `HTTP2StreamEvents` forwards to `streamOpened` and `streamClosed` here.
///
/// Every method runs on the channel's event loop.
final class HTTP2ConnectionWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame

    /// What the watcher tells the pool about a ready connection.
    struct Listener: Sendable {
        /// The server sent GOAWAY.
        let goingAway: @Sendable () -> Void
        /// A later SETTINGS changed how many streams the connection takes at once.
        let streamCapacityChanged: @Sendable (Int) -> Void
    }

    /// The most streams Ferry opens on one connection, whatever the server allows.
    static let maximumStreams = HTTP2ConnectionStateMachine.maximumStreams

    private let settingsReceived: EventLoopPromise<Int>
    private let listener: Listener
    private let pooledIdleTimeout: TimeAmount
    private var machine = HTTP2ConnectionStateMachine()
    private var idleClose: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    /// The last stream the server may have processed, once it sent GOAWAY (it sees the frame
    /// before the streams it drops hear that they closed, so an `ExchangeHandler` can ask).
    var goAwayLastStreamID: HTTP2StreamID? {
        machine.goAwayLastStreamID.map { HTTP2StreamID($0) }
    }

    /// Creates the watcher.
    ///
    /// - Parameters:
    ///   - pooledIdleTimeout: How long the connection may carry no stream before it closes.
    ///   - settingsReceived: Succeeded with the stream capacity (the server's
    ///     `SETTINGS_MAX_CONCURRENT_STREAMS`, at most `maximumStreams`) at the server's first
    ///     SETTINGS; failed if the connection closes before.
    ///   - listener: Told of GOAWAY and of later changes to the stream capacity.
    init(pooledIdleTimeout: TimeAmount, settingsReceived: EventLoopPromise<Int>, listener: Listener) {
        self.pooledIdleTimeout = pooledIdleTimeout
        self.settingsReceived = settingsReceived
        self.listener = listener
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        act(machine.added())
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleClose?.cancel()
        self.context = nil
    }

    /// A stream was created.
    func streamOpened(_ id: HTTP2StreamID) {
        act(machine.streamOpened(Int(id)))
    }

    /// A stream closed.
    func streamClosed(_ id: HTTP2StreamID) {
        act(machine.streamClosed(Int(id)))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case let .settings(.settings(settings)):
            let advertised = settings.last { $0.parameter == .maxConcurrentStreams }?.value
            act(machine.settingsReceived(maximumConcurrentStreams: advertised))
        case let .goAway(lastStreamID, _, _):
            act(machine.goAwayReceived(lastStreamID: Int(lastStreamID)))
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        act(machine.closed())
        context.fireChannelInactive()
    }

    private func act(_ action: HTTP2ConnectionStateMachine.Action) {
        switch action {
        case .none:
            break
        case let .ready(capacity):
            settingsReceived.succeed(capacity)
        case let .changeStreamCapacity(capacity):
            listener.streamCapacityChanged(capacity)
        case .goAway:
            listener.goingAway()
        case .scheduleIdleClose:
            idleClose?.cancel()
            guard let context else { return }
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            idleClose = context.eventLoop.scheduleTask(in: pooledIdleTimeout) {
                handler.value.act(handler.value.machine.idleTimeoutFired())
            }
        case .cancelIdleClose:
            idleClose?.cancel()
            idleClose = nil
        case .close:
            context?.close(promise: nil)
        case .failReady:
            idleClose?.cancel()
            settingsReceived.fail(UploadError.transferFailed(reason: .connectionLost(
                message: "the server closed the HTTP/2 connection before its settings")))
        }
    }
}
