import NIOCore
import UploadModel
import UploadProtocols

/// The first handler of a connection to a proxy for an `https://` server: sends `CONNECT` as
/// the connection becomes active, reads the proxy's answer (`ProxyConnectAnswer`) and
/// completes its promise: with success on a 2xx, from which on it passes every byte through,
/// or with the `UploadError` the answer means (`ServerAnswerMapping.tunnelFailure`; no answer),
/// closing the connection. The pool then adds TLS and the HTTP handlers behind it and removes it.
///
/// Every method runs on the channel's event loop.
final class ProxyTunnelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        /// Before the request went out.
        case idle
        /// The request went out; the answer's bytes so far.
        case waiting([UInt8])
        /// The tunnel is up; bytes that followed the answer's head, until the handler leaves.
        case established(leftover: ByteBuffer?)
        /// The proxy refused, or the connection failed before it answered.
        case failed
    }

    private let proxy: ProxyServer
    private let targetHost: String
    private let targetPort: Int
    private let promise: EventLoopPromise<Void>
    private var state = State.idle

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - proxy: The proxy the connection goes to.
    ///   - targetHost: The server's host name or address.
    ///   - targetPort: The server's port.
    ///   - established: Succeeded when the proxy opened the tunnel, failed with the
    ///     `UploadError` saying why not (on the channel's event loop).
    init(proxy: ProxyServer, targetHost: String, targetPort: Int, established: EventLoopPromise<Void>) {
        self.proxy = proxy
        self.targetHost = targetHost
        self.targetPort = targetPort
        promise = established
    }

    /// The server as error texts name it: `host:port`.
    private var target: String {
        ProxyServer.authority(host: targetHost, port: targetPort)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendRequest(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        switch state {
        case .established(nil):
            context.fireChannelRead(data)
        case var .established(leftover?):
            leftover.writeBuffer(&buffer)
            state = .established(leftover: leftover)
        case var .waiting(bytes):
            bytes.append(contentsOf: buffer.readableBytesView)
            answerReceived(bytes, context: context)
        case .idle, .failed:
            break
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(.proxyConnectFailed(proxy: proxy.address, message: "the connection closed before it answered CONNECT"),
             context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.proxyConnectFailed(proxy: proxy.address, message: "it closed the connection without answering CONNECT"),
             context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard case .established = state else {
            fail(.proxyConnectFailed(proxy: proxy.address, message: TransferErrorMapping.message(for: error)), context: context)
            return
        }
        context.fireErrorCaught(error)
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        if case let .established(leftover?) = state, leftover.readableBytes > 0 {
            state = .established(leftover: nil)
            context.fireChannelRead(wrapInboundOut(leftover))
        }
        context.leavePipeline(removalToken: removalToken)
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard case .idle = state else { return }
        state = .waiting([])
        let request = proxy.connectRequest(toHost: targetHost, port: targetPort)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    private func answerReceived(_ bytes: [UInt8], context: ChannelHandlerContext) {
        let answer: ProxyConnectAnswer
        do {
            guard let parsed = try ProxyConnectAnswer.parse(bytes) else {
                state = .waiting(bytes)
                return
            }
            answer = parsed
        } catch .notHTTP {
            fail(.proxyConnectFailed(proxy: proxy.address, message: "its answer to CONNECT is not HTTP"), context: context)
            return
        } catch {
            fail(.proxyConnectFailed(proxy: proxy.address, message: "its answer to CONNECT is too long"), context: context)
            return
        }
        if let failure = ServerAnswerMapping.tunnelFailure(of: answer, proxy: proxy, target: target) {
            fail(failure, context: context)
        } else {
            let rest = bytes[answer.headLength...]
            state = .established(leftover: rest.isEmpty ? nil : context.channel.allocator.buffer(bytes: rest))
            promise.succeed()
        }
    }

    private func fail(_ reason: UploadError.TransferReason, context: ChannelHandlerContext) {
        switch state {
        case .idle, .waiting:
            state = .failed
            promise.fail(UploadError.transferFailed(reason: reason))
            context.close(promise: nil)
        case .established, .failed:
            break
        }
    }
}
