import NIOCore
import NIOHTTPTypes

/// Carries out a ``ReadThrottle`` for one connection: counts the request body bytes that pass
/// and holds back the channel's next `read` until they are paid for.
///
/// It sits after ``ConnectionTimeoutHandler`` (nearer the server), so a held-back read reaches
/// the timeout handler only when it is let through: the time the receiver chooses not to read
/// is back-pressure and never counts against the client's body timeouts. Must be used on its
/// channel's event loop only (NIO handlers are).
final class ReadThrottleHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var throttle: ReadThrottle
    private var heldRead: Scheduled<Void>?

    /// Creates the handler for one connection.
    ///
    /// - Parameter bytesPerSecond: The pace.
    init(bytesPerSecond: Int64) {
        throttle = ReadThrottle(bytesPerSecond: bytesPerSecond)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        heldRead?.cancel()
        heldRead = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        heldRead?.cancel()
        heldRead = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .body(let buffer) = unwrapInboundIn(data) {
            throttle.bytesRead(buffer.readableBytes, now: .now())
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        guard heldRead == nil else { return }  // one held read stands for any number asked
        guard let deadline = throttle.nextRead(now: .now()) else {
            context.read()
            return
        }
        heldRead = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            heldRead = nil
            context.read()
        }
    }
}
