import NIOHTTP2
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
import UploadProtocols

/// `ServerAnswerMapping`: the answers that mean something else than they seem, without a server.
@Suite("Server answer mapping")
struct ServerAnswerMappingTests {
    private func page(_ status: Int, _ text: String) -> UploadResponse {
        UploadResponse(status: status, body: Array("<html><center>\(text)</center></html>".utf8))
    }

    @Test("nginx's client-certificate 400 pages over TLS are the TLS problem; over plain http or another 400, the answer")
    func nginxClientCertificate() {
        let required = page(400, "No required SSL certificate was sent")
        #expect(ServerAnswerMapping.outcome(of: required, host: "a.test", overTLS: true)
            == .failed(.transferFailed(reason: .tlsRejected(host: "a.test", problem: .clientCertificateRequired)), beforeResponse: false))
        let rejected = page(400, "The SSL certificate error")
        #expect(ServerAnswerMapping.outcome(of: rejected, host: "a.test", overTLS: true)
            == .failed(.transferFailed(reason: .tlsRejected(host: "a.test", problem: .clientCertificateRejected)), beforeResponse: false))
        #expect(ServerAnswerMapping.outcome(of: required, host: "a.test", overTLS: false) == .response(required))
        let other = page(400, "Bad Request")
        #expect(ServerAnswerMapping.outcome(of: other, host: "a.test", overTLS: true) == .response(other))
    }

    @Test("a forwarding proxy's 407 is its refusal of the credentials; other answers pass")
    func forwardingProxy() throws {
        let anonymous = try ProxyServer(url: "http://127.0.0.1:3128")
        let named = try ProxyServer(url: "http://user:secret@127.0.0.1:3128")
        #expect(ServerAnswerMapping.outcome(.success(UploadResponse(status: 407)), throughForwardingProxy: anonymous)
            == .failure(.transferFailed(reason: .proxyAuthenticationFailed(proxy: "127.0.0.1:3128", status: 407, credentialsGiven: false))))
        #expect(ServerAnswerMapping.outcome(.success(UploadResponse(status: 407)), throughForwardingProxy: named)
            == .failure(.transferFailed(reason: .proxyAuthenticationFailed(proxy: "127.0.0.1:3128", status: 407, credentialsGiven: true))))
        #expect(ServerAnswerMapping.outcome(.success(UploadResponse(status: 401)), throughForwardingProxy: named)
            == .success(UploadResponse(status: 401)))
    }

    @Test("CONNECT: 2xx opens the tunnel, 407 and tinyproxy's 401 refuse credentials, anything else refuses the tunnel with its status")
    func connectAnswers() throws {
        let proxy = try ProxyServer(url: "http://127.0.0.1:3128")
        func failure(_ head: String) throws -> UploadError.TransferReason? {
            let answer = try #require(try ProxyConnectAnswer.parse(Array("\(head)\r\n\r\n".utf8)))
            return ServerAnswerMapping.tunnelFailure(of: answer, proxy: proxy, target: "a.test:443")
        }
        #expect(try failure("HTTP/1.1 200 Connection established") == nil)
        #expect(try failure("HTTP/1.0 204 OK") == nil)
        #expect(try failure("HTTP/1.1 407 Proxy Authentication Required")
            == .proxyAuthenticationFailed(proxy: "127.0.0.1:3128", status: 407, credentialsGiven: false))
        #expect(try failure("HTTP/1.0 401 Unauthorized")
            == .proxyAuthenticationFailed(proxy: "127.0.0.1:3128", status: 401, credentialsGiven: false))
        #expect(try failure("HTTP/1.1 403 Forbidden")
            == .proxyRefusedTunnel(proxy: "127.0.0.1:3128", target: "a.test:443", status: 403, reasonPhrase: "Forbidden"))
    }

    @Test("HTTP/2: REFUSED_STREAM and a stream after GOAWAY are refusals; other resets only above GOAWAY's last stream")
    func refusedStreams() {
        let refused = NIOHTTP2Errors.streamClosed(streamID: 3, errorCode: .refusedStream)
        let cancelled = NIOHTTP2Errors.streamClosed(streamID: 3, errorCode: .cancel)
        let closed = NIOHTTP2Errors.ioOnClosedConnection()
        #expect(ServerAnswerMapping.isRefusedStream(refused, goAwayLastStreamID: nil, streamID: 3))
        #expect(ServerAnswerMapping.isRefusedStream(NIOHTTP2Errors.createdStreamAfterGoaway(), goAwayLastStreamID: nil, streamID: nil))
        #expect(!ServerAnswerMapping.isRefusedStream(cancelled, goAwayLastStreamID: nil, streamID: 3))
        #expect(!ServerAnswerMapping.isRefusedStream(closed, goAwayLastStreamID: nil, streamID: 3))
        #expect(ServerAnswerMapping.isRefusedStream(cancelled, goAwayLastStreamID: 1, streamID: 3))
        #expect(!ServerAnswerMapping.isRefusedStream(cancelled, goAwayLastStreamID: 3, streamID: 3))
        #expect(ServerAnswerMapping.isRefusedStream(closed, goAwayLastStreamID: 1, streamID: nil))
        #expect(!ServerAnswerMapping.isRefusedStream(closed, goAwayLastStreamID: 5, streamID: 3))
        #expect(!ServerAnswerMapping.isRefusedStream(UploadError.transferFailed(reason: .idleTimedOut), goAwayLastStreamID: 1, streamID: 3))
    }
}
