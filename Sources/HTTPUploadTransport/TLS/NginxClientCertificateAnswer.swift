import UploadModel

/// Recognises how nginx answers a TLS client-certificate problem: with `ssl_verify_client on`
/// it completes the handshake whatever the client sent, then answers every request with a
/// 400 page saying "No required SSL certificate was sent" (its status 496) or "The SSL
/// certificate error" (495). Those answers are the TLS problem they describe, not a request
/// the user should change.
enum NginxClientCertificateAnswer {
    /// The TLS problem a response stands for, if it is one of nginx's client-certificate pages.
    ///
    /// - Parameter response: A response received over TLS.
    /// - Returns: `clientCertificateRequired`, `clientCertificateRejected`, or nil for any
    ///   other response.
    static func problem(in response: UploadResponse) -> UploadError.TLSProblem? {
        guard response.status == 400 else { return nil }
        let page = String(decoding: response.body, as: UTF8.self)
        if page.contains("No required SSL certificate was sent") { return .clientCertificateRequired }
        if page.contains("The SSL certificate error") { return .clientCertificateRejected }
        return nil
    }
}
