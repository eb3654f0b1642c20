import NIOCore

/// A pass-through handler in each connection's pipeline that keeps the connection in a
/// ``ConnectionRegistry`` from the moment it is set up until it closes.
final class ConnectionRegistration: ChannelInboundHandler, RemovableChannelHandler {
    // Reads pass through untouched (the default `channelRead` forwards them), so their type
    // is never looked at.
    typealias InboundIn = NIOAny

    private let registry: ConnectionRegistry

    /// Creates the handler for one connection.
    ///
    /// - Parameter registry: Where the connection is recorded.
    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        registry.register(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        registry.unregister(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        registry.unregister(context.channel)
        context.fireChannelInactive()
    }
}
