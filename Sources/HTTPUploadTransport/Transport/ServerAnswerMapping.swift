import NIOHTTP2
import UploadModel
import UploadProtocols

/// What a server's or a proxy's answer means when it is not what it seems, decided in one place
/// (the handlers only gather the facts):
/// - nginx's client-certificate 400 pages over TLS are the TLS problem they describe
///   (`NginxClientCertificateAnswer`);
/// - a forwarding proxy's 407 to a plain-http request is the proxy refusing credentials, not the
///   server's answer;
/// - a proxy's answer to `CONNECT` opens the tunnel (2xx), refuses credentials (407, or a 401:
///   only the proxy answers `CONNECT`, and tinyproxy answers wrong credentials so), or refuses
///   the tunnel with its status and reason phrase (`ProxyConnectAnswer`);
/// - an HTTP/2 stream error is the server refusing the stream unprocessed (`REFUSED_STREAM`, a
///   stream opened after its GOAWAY or above the GOAWAY's last stream ID), which may be re-sent.
enum ServerAnswerMapping {
    /// The outcome a complete response stands for.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - host: The host the request went to, for the error text (worked out only for one).
    ///   - overTLS: Whether it came over TLS (from the server, not a forwarding proxy).
    /// - Returns: The response, or the failure it stands for.
    static func outcome(of response: UploadResponse, host: @autoclosure () -> String, overTLS: Bool) -> ExchangeStateMachine.Outcome {
        guard overTLS, let problem = NginxClientCertificateAnswer.problem(in: response) else { return .response(response) }
        return .failed(.transferFailed(reason: .tlsRejected(host: host(), problem: problem)), beforeResponse: false)
    }

    /// An attempt's outcome through a forwarding proxy (a plain-http request): its 407 is the
    /// proxy's refusal.
    ///
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - proxy: The forwarding proxy.
    static func outcome(
        _ outcome: Result<UploadResponse, UploadError>, throughForwardingProxy proxy: ProxyServer
    ) -> Result<UploadResponse, UploadError> {
        guard case let .success(response) = outcome, response.status == 407 else { return outcome }
        return .failure(.transferFailed(reason: .proxyAuthenticationFailed(
            proxy: proxy.address, status: 407, credentialsGiven: proxy.hasCredentials)))
    }

    /// Why a proxy's answer to `CONNECT` did not open the tunnel.
    ///
    /// - Parameters:
    ///   - answer: The answer.
    ///   - proxy: The proxy.
    ///   - target: The server the tunnel was for, as `host:port`.
    /// - Returns: The failure, or nil when the tunnel is open.
    static func tunnelFailure(of answer: ProxyConnectAnswer, proxy: ProxyServer, target: String) -> UploadError.TransferReason? {
        if answer.isEstablished { return nil }
        if answer.status == 407 || answer.status == 401 {
            return .proxyAuthenticationFailed(proxy: proxy.address, status: answer.status, credentialsGiven: proxy.hasCredentials)
        }
        return .proxyRefusedTunnel(proxy: proxy.address, target: target, status: answer.status, reasonPhrase: answer.reasonPhrase)
    }

    /// Whether an error on an HTTP/2 stream says the server did not process it: it refused it,
    /// the stream was opened after the server's GOAWAY, or — once the server sent GOAWAY — it was
    /// reset or could not be written (the connection had closed) with a stream ID above the
    /// GOAWAY's last, or before it had an ID.
    ///
    /// - Parameters:
    ///   - error: The stream's error.
    ///   - goAwayLastStreamID: The last stream ID of the server's GOAWAY; nil before any GOAWAY
    ///     (or on HTTP/1.1).
    ///   - streamID: The stream's ID; nil before it had one.
    static func isRefusedStream(_ error: any Error, goAwayLastStreamID: HTTP2StreamID?, streamID: HTTP2StreamID?) -> Bool {
        if error is NIOHTTP2Errors.CreatedStreamAfterGoaway { return true }
        if let closed = error as? NIOHTTP2Errors.StreamClosed, closed.errorCode == .refusedStream { return true }
        guard error is NIOHTTP2Errors.StreamClosed || error is NIOHTTP2Errors.IOOnClosedConnection,
              let last = goAwayLastStreamID else { return false }
        guard let streamID else { return true }
        return streamID > last
    }
}
