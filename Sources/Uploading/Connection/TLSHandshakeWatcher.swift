import NIOCore
import NIOSSL
import NIOTLS

/// Sits behind `NIOSSLClientHandler` until the TLS handshake has ended: completes its promise
/// when it succeeded (`TLSUserEvent.handshakeCompleted`), or with the error
/// that ended it (the TLS error, or the connection closing), closing the connection. It takes
/// errors before the handshake's end for itself, so the pool reports them as the connect
/// failure; afterwards it passes everything on.
///
/// Every method runs on the channel's event loop.
final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let completed: EventLoopPromise<Void>
    private var pending = true

    /// Creates the watcher.
    ///
    /// - Parameter completed: Succeeded when the handshake has completed, failed with what
    ///   ended it otherwise (on the channel's event loop).
    init(completed: EventLoopPromise<Void>) {
        self.completed = completed
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(UploadError.transferFailed(reason: .connectionLost(message: "the connection closed during the TLS handshake")),
             context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event, pending {
            pending = false
            completed.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard pending else {
            context.fireErrorCaught(error)
            return
        }
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(UploadError.transferFailed(reason: .connectionLost(message: "the connection closed during the TLS handshake")),
             context: context)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        guard pending else { return }
        pending = false
        completed.fail(error)
        context.close(promise: nil)
    }
}
