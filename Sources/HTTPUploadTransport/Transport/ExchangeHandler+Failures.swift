import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import Glibc
import UploadModel

/// Failing an exchange: an error in words naming the host (`TransferErrorMapping`), a refused
/// HTTP/2 stream (`ServerAnswerMapping`), the server's certificate for a TLS failure.
extension ExchangeHandler {
    /// Fails the running exchange for `error`, in words naming the request's host.
    func fail(with error: any Error, certificate: PeerCertificateFacts?) {
        guard let current = running else { return }
        if isRefusal(error) {
            running?.refused = true
            let reason = UploadError.TransferReason.connectionLost(
                message: "\(Self.host(of: current.request.head)) refused the request's HTTP/2 stream without processing it")
            act(running?.machine.failed(reason, connectionDropped: true))
            return
        }
        let reason = TransferErrorMapping.reason(
            for: error, host: Self.host(of: current.request.head), replyBeginning: current.replyBeginning,
            responseHeadReceived: current.headReceived, peerCertificate: certificate, now: Int64(time(nil)))
        act(running?.machine.failed(reason, connectionDropped: TransferErrorMapping.isConnectionDrop(error)))
    }

    /// The server's certificate, if TLS received one (also after a failed verification: BoringSSL
    /// keeps the certificate of the handshake in progress).
    func peerCertificate(context: ChannelHandlerContext) -> PeerCertificateFacts? {
        guard let tls = try? (context.channel.parent ?? context.channel).pipeline.syncOperations
            .handler(type: NIOSSLClientHandler.self),
              let certificate = tls.peerCertificate else { return nil }
        return PeerCertificateFacts(certificate)
    }

    /// Whether `error` says the server did not process this HTTP/2 stream
    /// (`ServerAnswerMapping.isRefusedStream`, from the connection's GOAWAY and the stream's ID).
    /// Only an HTTP/2 stream's channel (one with a parent) is asked for its stream ID: a socket
    /// channel traps on the option.
    private func isRefusal(_ error: any Error) -> Bool {
        guard let stream = context?.channel, let connection = stream.parent,
              let watcher = try? connection.pipeline.syncOperations.handler(type: HTTP2ConnectionWatcher.self),
              let last = watcher.goAwayLastStreamID else {
            return ServerAnswerMapping.isRefusedStream(error, goAwayLastStreamID: nil, streamID: nil)
        }
        let streamID = try? stream.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
        return ServerAnswerMapping.isRefusedStream(error, goAwayLastStreamID: last, streamID: streamID)
    }

    /// Whether `error` is a TLS failure (after which the server's certificate is worth showing).
    static func isTLSFailure(_ error: any Error) -> Bool {
        error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError
    }

    /// The host a request is for: its `Host` header without the port.
    static func host(of head: HTTPRequestHead) -> String {
        let value = head.headers.first(name: "host") ?? "the server"
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<end])
        }
        if let colon = value.lastIndex(of: ":") { return String(value[..<colon]) }
        return value
    }
}
