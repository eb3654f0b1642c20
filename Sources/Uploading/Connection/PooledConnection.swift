import NIOCore

/// An open connection of the pool: its channel and the handler that runs its exchanges.
final class PooledConnection: Sendable {
    /// The pool's name for it.
    let id: ConnectionPoolStateMachine.ConnectionID
    /// The channel.
    let channel: any Channel
    private let handler: NIOLoopBound<ExchangeHandler>

    /// Wraps a connected channel. **Must** be called on the channel's event loop.
    init(id: ConnectionPoolStateMachine.ConnectionID, channel: any Channel, handler: ExchangeHandler) {
        self.id = id
        self.channel = channel
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    }

    /// Runs one exchange (from any thread).
    func execute(_ request: ExchangeHandler.Request) {
        channel.eventLoop.execute { self.handler.value.start(request) }
    }

    /// Cancels the exchange with `token`, if it is still the one running (from any thread).
    func cancel(token: Int) {
        channel.eventLoop.execute { self.handler.value.cancel(token: token) }
    }
}
