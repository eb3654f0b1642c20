import UploadModel

/// Explains a failed TLS handshake in the terms of `UploadError.TLSProblem`, without I/O: from
/// the reasons BoringSSL gave (`CERTIFICATE_VERIFY_FAILED`, `TLSV1_ALERT_PROTOCOL_VERSION`…)
/// and, for a certificate that failed verification, from what the certificate says (its dates,
/// its issuer, its names).
///
/// BoringSSL reports a failed verification only as `CERTIFICATE_VERIFY_FAILED`; the exact X.509
/// error is not exposed by NIOSSL without a verification callback of the handler's own. So the
/// certificate is examined: expired or not yet valid (its dates against the clock), otherwise
/// self-signed (its issuer is its subject), otherwise signed by an authority that is not trusted.
enum TLSFailureDiagnosis {
    /// The problem behind a failed handshake.
    ///
    /// - Parameters:
    ///   - reasons: BoringSSL's reason names, from its error stack (`reasonName(in:)`).
    ///   - certificate: The server's certificate, when it sent one before the failure.
    ///   - now: The current time, seconds since 1970.
    /// - Returns: The problem.
    static func problem(reasons: [String], certificate: PeerCertificateFacts?, now: Int64) -> UploadError.TLSProblem {
        for reason in reasons {
            switch reason {
            case "CERTIFICATE_VERIFY_FAILED":
                return certificateProblem(certificate, now: now)
            case "TLSV1_ALERT_PROTOCOL_VERSION", "UNSUPPORTED_PROTOCOL":
                return .protocolMismatch
            case "NO_SHARED_CIPHER", "NO_CIPHERS_AVAILABLE", "SSLV3_ALERT_HANDSHAKE_FAILURE",
                 "TLSV1_ALERT_INSUFFICIENT_SECURITY", "HANDSHAKE_FAILURE_ON_CLIENT_HELLO":
                return .handshakeRefused
            case "TLSV1_ALERT_CERTIFICATE_REQUIRED":
                return .clientCertificateRequired
            case "SSLV3_ALERT_BAD_CERTIFICATE", "TLSV1_ALERT_UNKNOWN_CA", "SSLV3_ALERT_CERTIFICATE_EXPIRED",
                 "SSLV3_ALERT_CERTIFICATE_UNKNOWN", "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE",
                 "SSLV3_ALERT_CERTIFICATE_REVOKED", "TLSV1_ALERT_ACCESS_DENIED":
                return .clientCertificateRejected
            case "WRONG_VERSION_NUMBER", "HTTP_REQUEST", "HTTPS_PROXY_REQUEST", "PACKET_LENGTH_TOO_LONG",
                 "WRONG_SSL_VERSION", "RECORD_TOO_LARGE":
                return .notTLS
            default:
                continue
            }
        }
        return .other(reason: reasons.first.map(words) ?? "no reason given")
    }

    /// Why a certificate that failed verification failed: its dates first (whoever signed it,
    /// an expired certificate must be renewed), then whether it signed itself, then its issuer.
    ///
    /// - Parameters:
    ///   - certificate: The server's certificate, if it is known.
    ///   - now: The current time, seconds since 1970.
    static func certificateProblem(_ certificate: PeerCertificateFacts?, now: Int64) -> UploadError.TLSProblem {
        guard let certificate else { return .certificateRejected(reason: "it could not be verified") }
        if certificate.notValidAfter < now { return .certificateExpired(notValidAfter: certificate.notValidAfter) }
        if certificate.notValidBefore > now { return .certificateNotYetValid(notValidBefore: certificate.notValidBefore) }
        if certificate.isSelfIssued { return .certificateSelfSigned }
        return .certificateIssuerUnknown(issuer: certificate.issuer)
    }

    /// The reason name in the description of one BoringSSL error:
    /// `Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at FILE:LINE`
    /// gives `CERTIFICATE_VERIFY_FAILED`.
    ///
    /// - Parameter description: The error's description.
    /// - Returns: The reason, or nil when the description has no `error:` part.
    static func reasonName(in description: String) -> String? {
        guard let start = description.firstRange(of: "error:") else { return nil }
        var text = description[start.upperBound...]
        if let end = text.firstRange(of: " at ") { text = text[..<end.lowerBound] }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count >= 4, let reason = fields.last, !reason.isEmpty else { return nil }
        return String(reason)
    }

    /// A reason name as lower-case words: `CERTIFICATE_VERIFY_FAILED` → `certificate verify failed`.
    static func words(_ reason: String) -> String {
        String(reason.lowercased().map { $0 == "_" ? " " : $0 })
    }
}
