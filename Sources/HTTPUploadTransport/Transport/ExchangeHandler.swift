import Multipart
import NIOCore
import NIOHTTP1
import NIOSSL

import UploadModel

/// The last handler of a pooled connection's pipeline: runs one exchange at a time through an
/// `ExchangeStateMachine` — writes the head and the body (from a `BodyPump`, a chunk in flight
/// and one read ahead, progress from completed writes), feeds the decoded response and the
/// connection's fate to the machine, watches for idleness, and closes the connection when the
/// machine says so. Between exchanges, a byte from the server or the pool's idle time closes it.
///
/// On plain TCP (`sendsFileRegions`) a body's large files go as file regions the kernel sends
/// (`sendfile`); over TLS and on HTTP/2 streams, whose handlers need the bytes, as chunks.
///
/// On an HTTP/2 stream (behind `HTTP2FramePayloadToHTTP1ClientCodec`) it runs the stream's one
/// exchange the same way; the stream is closed (reset, if still open) when the exchange ends,
/// and a stream the server refused unprocessed (`REFUSED_STREAM`, or opened after its GOAWAY)
/// ends as `beforeResponse`, may be re-sent.
///
/// On a channel that allows remote half-closure (plain TCP: `ConnectionSetup` sets
/// `ChannelOptions.allowRemoteHalfClosure`; TLS ends with its own close) the server's close
/// arrives as `ChannelEvent.inputClosed`: when a
/// reused connection's server closes after the whole request went out and before any answer, the
/// handler waits ``resetProbe`` for the reset that a server which closed before reading sends
/// when the request arrives — then the request certainly did not complete and is re-sent —
/// before it treats the close as one that may have followed a stored upload.
///
/// Every method runs on the channel's event loop.
final class ExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// The exchange running (internal for the handler's extensions).
    struct Running {
        let request: Request
        let generation: Int
        let reused: Bool
        /// Body bytes handed to the channel so far.
        var bytesQueued: Int64 = 0
        /// Whether the request's end has been written (with the last body byte).
        var endWritten = false
        var machine = ExchangeStateMachine()
        var lastActivity = NIODeadline.now()
        var watchdog: Scheduled<Void>?
        /// The first bytes of the reply (one more than is shown, to tell that more came).
        var replyBeginning: [UInt8] = []
        /// Whether a final (not informational) response head was decoded.
        var headReceived = false
        /// Whether the server refused the exchange's HTTP/2 stream without processing it.
        var refused = false
        /// Whether the server closed its side and the handler waits to see if a reset follows.
        var probingForReset = false
        /// Body bytes the peer acknowledged (on a TCP socket; else those written), as reported.
        var acknowledged: Int64 = 0
        /// On plain TCP, the bytes the connection had written before this request's head, and
        /// the head's length: the body's bytes follow them in the stream the peer acknowledges.
        var streamStart: (offset: Int64, headLength: Int64)?
        /// The next look at the socket's send queue while written bytes wait for the peer.
        var acknowledgementPoll: Scheduled<Void>?
    }

    /// How often a socket's send queue is read while body bytes written wait for the peer's
    /// acknowledgement (the manager reads progress every 100 ms).
    static let acknowledgementPollInterval = TimeAmount.milliseconds(100)

    /// Whether the request's progress follows the peer's acknowledgements: a body larger than one
    /// small write (`BodyPump.smallBodyLimit`). A small body goes with its head in one write and
    /// counts as written: its answer follows within a round trip, and reading the socket's queue
    /// and a poll timer for each small file cost a fifth of the small-file rate (meanwhile it
    /// shows as waiting for the answer).
    static func tracksAcknowledgement(of request: Request) -> Bool {
        request.bodyLength > BodyPump.smallBodyLimit
    }

    /// How long a half-closed reused connection is watched for the reset that says the server
    /// never read the request (a loopback or LAN round trip is far shorter; a slower reset is
    /// taken as no reset: "may have arrived", the safe side).
    static let resetProbe = TimeAmount.milliseconds(300)

    /// How long an unused connection stays open; nil on an HTTP/2 stream, which carries one
    /// exchange.
    private let pooledIdleTimeout: TimeAmount?
    /// Whether body files may be written as file regions: the bytes go to the socket as they are
    /// (plain TCP, HTTP/1.1).
    let sendsFileRegions: Bool
    /// The handler's context while it is in a pipeline.
    private(set) var context: ChannelHandlerContext?
    /// The exchange running, if any.
    var running: Running?
    private var generation = 0
    private var idleClose: Scheduled<Void>?

    /// How many exchanges this connection has started (a reused connection has started some).
    private var exchangesStarted = 0
    /// An error that ended the connection while no exchange ran (the pool had not yet handed it
    /// over): the next exchange fails with it.
    private var errorBetweenExchanges: (error: any Error, certificate: PeerCertificateFacts?)?

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - pooledIdleTimeout: How long the connection may stay unused before it closes; nil for
    ///     an HTTP/2 stream.
    ///   - sendsFileRegions: Whether nothing between the handler and the socket needs a body's
    ///     bytes (no TLS, not an HTTP/2 stream), so its files may go as file regions.
    init(pooledIdleTimeout: TimeAmount?, sendsFileRegions: Bool) {
        self.pooledIdleTimeout = pooledIdleTimeout
        self.sendsFileRegions = sendsFileRegions
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    // MARK: Running an exchange

    /// Starts an exchange. **Must** be called on the event loop, with no exchange running.
    func start(_ request: Request) {
        idleClose?.cancel()
        idleClose = nil
        exchangesStarted += 1
        generation += 1
        running = Running(request: request, generation: generation, reused: exchangesStarted > 1)
        if let (error, certificate) = errorBetweenExchanges {
            errorBetweenExchanges = nil
            fail(with: error, certificate: certificate)
            return
        }
        guard let context, context.channel.isActive else {
            act(running?.machine.connectionClosed())
            return
        }
        watch(request.idleTimeout, generation: generation)
        if sendsFileRegions, Self.tracksAcknowledgement(of: request), let queue = TCPSendQueue.current(of: context.channel) {
            running?.streamStart = (queue.writtenBytes, Self.wireLength(of: request.head))
        }
        if pooledIdleTimeout == nil {
            // A stream the connection cannot open any more (the server's GOAWAY came first)
            // fails its head's write.
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.write(wrapOutboundOut(.head(request.head)), promise: promise)
            let generation = generation
            promise.futureResult.assumeIsolated().whenFailure { error in
                guard self.running?.generation == generation else { return }
                self.fail(with: error, certificate: nil)
                self.context?.close(promise: nil)
            }
        } else {
            context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        }
        sendNextChunk()
    }

    /// Fails the running exchange as cancelled and closes the connection, if the exchange
    /// named `token` is still the one running.
    func cancel(token: Int) {
        guard running?.request.token == token else { return }
        act(running?.machine.failed(.other(message: "cancelled"), connectionDropped: false))
    }

    // MARK: Inbound

    /// Bytes arrived from the server (reported by `ResponseByteWatcher`, before decoding).
    func bytesArrived(_ bytes: ByteBuffer) {
        guard let current = running else { return }
        running?.machine.responseBytesArrived()
        running?.lastActivity = .now()
        let room = TransferErrorMapping.shownReplyBytes + 1 - current.replyBeginning.count
        if room > 0 { running?.replyBeginning += bytes.readableBytesView.prefix(room) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard running != nil else {
            // A server speaking between exchanges (a 408 on an idle connection, say): the
            // connection cannot carry a request any more.
            context.close(promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case let .head(head):
            running?.machine.responseBytesArrived()
            let headers = head.headers.map { HeaderField(name: $0.name, value: $0.value) }
            let status = Int(head.status.code)
            if ExchangeStateMachine.isInformational(status) {
                running?.request.informational?(status, headers)
            } else {
                running?.headReceived = true
            }
            act(running?.machine.responseHeadReceived(status: status, headers: headers,
                                                      keepAlive: head.isKeepAlive))
        case let .body(buffer):
            act(running?.machine.responseBodyReceived(buffer.readableBytesView))
        case .end:
            act(running?.machine.responseEnded())
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleClose?.cancel()
        // While probing, only NIO closes the channel, for a reset (EPOLLERR/EPOLLHUP): the
        // handler itself clears the probe before it closes.
        if running?.probingForReset == true { running?.machine.connectionReset() }
        act(running?.machine.connectionClosed())
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? ChannelEvent, event == .inputClosed else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // The server closed its side (after NIO's decoder ended any response framed by the close).
        // Its close acknowledged every byte its machine had received: bytes of the request still
        // unacknowledged now never reached it.
        if running != nil, let queue = TCPSendQueue.current(of: context.channel), queue.unacknowledgedBytes > 0 {
            running?.machine.peerClosedMissingBytes()
        }
        guard let current = running, current.reused, current.machine.awaitsFirstResponseByte else {
            context.close(promise: nil)
            return
        }
        running?.probingForReset = true
        let generation = current.generation
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: Self.resetProbe) {
            let handler = handler.value
            guard handler.running?.generation == generation, handler.running?.probingForReset == true else { return }
            handler.running?.probingForReset = false
            handler.context?.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A TLS peer that closes without close_notify: a response framed by the close has ended
        // (the decoder says so when the channel goes inactive); anything else fails then.
        if let error = error as? NIOSSLError, case .uncleanShutdown = error { return }
        let certificate = Self.isTLSFailure(error) ? peerCertificate(context: context) : nil
        if running == nil {
            errorBetweenExchanges = (error, certificate)
        } else {
            if TransferErrorMapping.isPeerReset(error) { running?.machine.connectionReset() }
            fail(with: error, certificate: certificate)
        }
        context.close(promise: nil)
    }

    // MARK: Ending

    /// Carries out what the exchange's machine decided.
    func act(_ action: ExchangeStateMachine.Action?) {
        guard let action else { return }
        switch action {
        case .none:
            return
        case .stopBody:
            // The server answered while the body was going out: no chunk follows (`chunkRead`
            // checks), so the files are released now rather than when the response has ended.
            running?.request.pump.close()
        case .finish(var outcome, let fate):
            guard let ended = running else { return }
            running = nil
            if case let .response(response) = outcome, let context {
                let overTLS = (try? (context.channel.parent ?? context.channel).pipeline.syncOperations
                    .handler(type: NIOSSLClientHandler.self)) != nil
                outcome = ServerAnswerMapping.outcome(of: response, host: Self.host(of: ended.request.head), overTLS: overTLS)
            }
            ended.watchdog?.cancel()
            ended.acknowledgementPoll?.cancel()
            // An answer means the server read what was written: nothing waits for its machine now.
            if case .response = outcome, ended.machine.bytesSent > ended.acknowledged {
                ended.request.wrote(ended.machine.bytesSent)
            }
            ended.request.pump.close()
            guard let pooledIdleTimeout else {
                // An HTTP/2 stream carries one exchange: closing it resets it if still open.
                context?.close(promise: nil)
                ended.request.ended(outcome, .close, ended.refused)
                return
            }
            var fate = fate
            var idleLimit = pooledIdleTimeout
            if fate == .reuse, case let .response(response) = outcome {
                // Closed a second before the server's own `Keep-Alive: timeout`, never reused into it.
                if let limit = KeepAliveHint.idleLimit(after: response, default: pooledIdleTimeout) {
                    idleLimit = limit
                } else {
                    fate = .close
                }
            }
            if fate == .close {
                context?.close(promise: nil)
            } else if let context {
                let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
                idleClose = context.eventLoop.scheduleTask(in: idleLimit) {
                    handler.value.context?.close(promise: nil)
                }
            }
            // A reused connection's failure is re-sent only when the server certainly lacks the
            // request: a server that read it whole and closed without a word may have stored it.
            // After the last byte went to the socket, that evidence goes with the failure, so the
            // manager retries a job the server cannot have stored instead of asking the user.
            let certainlyIncomplete = ended.machine.requestCertainlyIncomplete
            if ended.endWritten, certainlyIncomplete, case let .failed(.transferFailed(reason), beforeResponse) = outcome {
                outcome = .failed(.transferFailed(reason: .incompleteAtServer(reason)), beforeResponse: beforeResponse)
            }
            ended.request.ended(outcome, fate, ended.reused && certainlyIncomplete)
        }
    }

    /// The bytes NIO's `HTTPRequestEncoder` writes for a head whose framing headers are set
    /// (`Content-Length`): `METHOD URI HTTP/1.1`, each `name: value`, each line ended by CRLF,
    /// then an empty line.
    static func wireLength(of head: HTTPRequestHead) -> Int64 {
        var length = head.method.rawValue.utf8.count + 1 + head.uri.utf8.count + 1 + "\(head.version)".utf8.count + 2
        for (name, value) in head.headers { length += name.utf8.count + 2 + value.utf8.count + 2 }
        return Int64(length + 2)
    }

    private func watch(_ limit: TimeAmount, generation: Int) {
        guard let context else { return }
        let tick = min(limit, .seconds(1))
        running?.watchdog = context.eventLoop.assumeIsolated().scheduleTask(in: tick) {
            guard let running = self.running, running.generation == generation else { return }
            if NIODeadline.now() - running.lastActivity >= limit {
                self.act(self.running?.machine.failed(.idleTimedOut, connectionDropped: false))
            } else {
                self.watch(limit, generation: generation)
            }
        }
    }
}
