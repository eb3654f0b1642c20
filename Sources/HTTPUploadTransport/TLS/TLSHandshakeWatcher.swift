import NIOCore
import NIOSSL
import NIOTLS
import Glibc
import UploadModel

/// Sits behind `NIOSSLClientHandler` until the TLS handshake has ended: completes its promise
/// when it succeeded (`TLSUserEvent.handshakeCompleted`, passed on first, so that the handlers
/// behind it — NIO's ALPN handler — have set up the pipeline before whoever waits for the promise
/// looks at it or removes this watcher), or with the `UploadError` for what
/// ended it — the TLS failure in words (`TransferErrorMapping`, with the server's certificate
/// while the TLS handler still holds it), or the connection closing —, closing the connection.
/// It takes errors before the handshake's end for itself, so the pool reports them as the
/// connect failure; afterwards it passes everything on.
///
/// Every method runs on the channel's event loop.
final class TLSHandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let completed: EventLoopPromise<Void>
    private let host: String
    private var pending = true

    /// Creates the watcher.
    ///
    /// - Parameters:
    ///   - host: The server's host, named in the errors.
    ///   - completed: Succeeded when the handshake has completed, failed with what ended it
    ///     otherwise (on the channel's event loop).
    init(host: String, completed: EventLoopPromise<Void>) {
        self.host = host
        self.completed = completed
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(closedDuringHandshake, context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let event = event as? TLSUserEvent, case .handshakeCompleted = event, pending else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        pending = false
        context.fireUserInboundEventTriggered(event)
        completed.succeed()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard pending else {
            context.fireErrorCaught(error)
            return
        }
        let certificate = (try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self))?
            .peerCertificate.map(PeerCertificateFacts.init)
        let reason = TransferErrorMapping.reason(for: error, host: host, replyBeginning: [], responseHeadReceived: false,
                                                 peerCertificate: certificate, now: Int64(time(nil)))
        fail(UploadError.transferFailed(reason: reason), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(closedDuringHandshake, context: context)
        context.fireChannelInactive()
    }

    /// The connection closed before the handshake ended, with no TLS error to say why.
    private var closedDuringHandshake: UploadError {
        .transferFailed(reason: .connectionLost(message: "\(host) closed the connection during the TLS handshake"))
    }

    private func fail(_ error: UploadError, context: ChannelHandlerContext) {
        guard pending else { return }
        pending = false
        completed.fail(error)
        context.close(promise: nil)
    }
}
