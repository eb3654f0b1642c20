import NIOCore

/// Sits before the HTTP decoder and tells the `ExchangeHandler` that bytes arrived, so a
/// failure can tell "the server answered nothing" from "the server began to answer" (a partial
/// head the decoder is still holding counts as an answer), and shows the reply's first bytes
/// when they are not HTTP.
final class ResponseByteWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let exchangeHandler: ExchangeHandler

    /// Creates a watcher reporting to `exchangeHandler` (in the same pipeline).
    init(reportingTo exchangeHandler: ExchangeHandler) {
        self.exchangeHandler = exchangeHandler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if bytes.readableBytes > 0 { exchangeHandler.bytesArrived(bytes) }
        context.fireChannelRead(data)
    }
}
