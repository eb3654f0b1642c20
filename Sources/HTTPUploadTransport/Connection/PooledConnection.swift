import NIOCore
import NIOHTTP1
import NIOHTTP2
import UploadModel

/// An open connection of the pool: its channel and what runs its exchanges — the connection's
/// `ExchangeHandler` (HTTP/1.1, one exchange at a time), or a stream of its own per exchange
/// (HTTP/2), each with an `ExchangeHandler` behind NIO's HTTP/2-to-HTTP/1 codec.
final class PooledConnection: Sendable {
    /// What runs the connection's exchanges.
    private enum Carrier: Sendable {
        /// HTTP/1.1: the pipeline's last handler.
        case exchanges(NIOLoopBound<ExchangeHandler>)
        /// HTTP/2: a new stream per exchange, and its exchanges.
        case streams(NIOHTTP2Handler.StreamMultiplexer, capacity: Int, running: NIOLoopBoundBox<StreamExchanges>)
    }

    /// The exchanges of an HTTP/2 connection, by token.
    private struct StreamExchanges {
        /// The handlers of the exchanges running.
        var handlers: [Int: ExchangeHandler] = [:]
        /// Exchanges whose stream is being opened.
        var opening: Set<Int> = []
        /// Exchanges cancelled while their stream was being opened.
        var cancelled: Set<Int> = []
    }

    /// The pool's name for it.
    let id: ConnectionPoolStateMachine.ConnectionID
    /// The channel.
    let channel: any Channel
    private let carrier: Carrier

    /// Wraps a connected HTTP/1.1 channel. **Must** be called on the channel's event loop.
    init(id: ConnectionPoolStateMachine.ConnectionID, channel: any Channel, handler: ExchangeHandler) {
        self.id = id
        self.channel = channel
        self.carrier = .exchanges(NIOLoopBound(handler, eventLoop: channel.eventLoop))
    }

    /// Wraps a connected HTTP/2 channel. **Must** be called on the channel's event loop.
    ///
    /// - Parameters:
    ///   - id: The pool's name for it.
    ///   - channel: The channel.
    ///   - multiplexer: Opens its streams.
    ///   - streamCapacity: How many exchanges it may carry at once.
    init(id: ConnectionPoolStateMachine.ConnectionID, channel: any Channel,
         multiplexer: NIOHTTP2Handler.StreamMultiplexer, streamCapacity: Int) {
        self.id = id
        self.channel = channel
        self.carrier = .streams(multiplexer, capacity: streamCapacity,
                                running: NIOLoopBoundBox(StreamExchanges(), eventLoop: channel.eventLoop))
    }

    /// For an HTTP/2 connection, how many exchanges it may carry at once; nil for HTTP/1.1.
    var streamCapacity: Int? {
        guard case let .streams(_, capacity, _) = carrier else { return nil }
        return capacity
    }

    /// Runs one exchange (from any thread). An exchange whose attempt was cancelled before it
    /// started ends as cancelled without a byte sent, leaving the connection as it was: the
    /// `cancel(token:)` that said so may have run first (the attempt learns which connection it
    /// has, and may be cancelled, before this call has handed the exchange to the event loop).
    func execute(_ request: ExchangeHandler.Request) {
        switch carrier {
        case let .exchanges(handler):
            channel.eventLoop.execute {
                if Self.endIfCancelled(request) { return }
                handler.value.start(request)
            }
        case let .streams(multiplexer, _, running):
            channel.eventLoop.execute {
                if Self.endIfCancelled(request) { return }
                self.openStream(for: request, multiplexer: multiplexer, running: running)
            }
        }
    }

    /// Ends `request` as cancelled, before any byte was sent, if its attempt was cancelled.
    ///
    /// - Returns: Whether it was.
    private static func endIfCancelled(_ request: ExchangeHandler.Request) -> Bool {
        guard request.isCancelled() else { return false }
        request.pump.close()
        request.ended(.failed(.transferFailed(reason: .other(message: "cancelled")), beforeResponse: true), .reuse, false)
        return true
    }

    /// Cancels the exchange with `token`, if it is still the one running (from any thread).
    func cancel(token: Int) {
        switch carrier {
        case let .exchanges(handler):
            channel.eventLoop.execute { handler.value.cancel(token: token) }
        case let .streams(_, _, running):
            channel.eventLoop.execute {
                if let handler = running.value.handlers[token] {
                    handler.cancel(token: token)
                } else if running.value.opening.contains(token) {
                    running.value.cancelled.insert(token)
                }
            }
        }
    }

    /// Opens a stream for `request` and starts its exchange there (cancelled at once if it was
    /// cancelled meanwhile); a stream that cannot be opened (the connection closed or is going
    /// away) ends the request as not processed.
    private func openStream(for request: ExchangeHandler.Request, multiplexer: NIOHTTP2Handler.StreamMultiplexer,
                            running: NIOLoopBoundBox<StreamExchanges>) {
        let token = request.token
        let tracked = ExchangeHandler.Request(
            token: token, isCancelled: request.isCancelled, head: request.head, bodyLength: request.bodyLength, pump: request.pump,
            idleTimeout: request.idleTimeout, wrote: request.wrote, bodyCompleting: request.bodyCompleting,
            informational: request.informational,
            ended: { outcome, fate, mayResend in
                running.value.handlers[token] = nil
                request.ended(outcome, fate, mayResend)
            }
        )
        running.value.opening.insert(token)
        let opened = channel.eventLoop.makePromise(of: (any Channel).self)
        multiplexer.createStreamChannel(promise: opened) { stream in
            stream.eventLoop.makeCompletedFuture {
                let operations = stream.pipeline.syncOperations
                try operations.addHandler(HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https))
                try operations.addHandler(ExchangeHandler(pooledIdleTimeout: nil, sendsFileRegions: false))
            }
        }
        let host = ExchangeHandler.host(of: request.head)
        opened.futureResult.assumeIsolated().whenComplete { result in
            running.value.opening.remove(token)
            let cancelled = running.value.cancelled.remove(token) != nil
            guard case let .success(stream) = result,
                  let handler = try? stream.pipeline.syncOperations.handler(type: ExchangeHandler.self) else {
                request.pump.close()
                let reason = UploadError.TransferReason.connectionLost(
                    message: "\(host) closed the HTTP/2 connection before the request's stream opened")
                request.ended(.failed(.transferFailed(reason: reason), beforeResponse: true), .close, true)
                return
            }
            running.value.handlers[token] = handler
            handler.start(tracked)
            if cancelled || request.isCancelled() { handler.cancel(token: token) }
        }
    }
}
