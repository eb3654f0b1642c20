import FoundationEssentials
import Glibc

extension UploadError {
    /// Why a TLS handshake failed, in the terms a user can act on. `Codable` (the journal stores
    /// it inside `TransferReason.tlsRejected`).
    public enum TLSProblem: Sendable, Hashable, Codable {
        /// The server's certificate expired at `notValidAfter` (seconds since 1970, UTC).
        case certificateExpired(notValidAfter: Int64)
        /// The server's certificate is valid only from `notValidBefore` (seconds since 1970, UTC).
        case certificateNotYetValid(notValidBefore: Int64)
        /// The server's certificate signed itself, and it is not among the trusted ones.
        case certificateSelfSigned
        /// The server's certificate is signed by an authority that is not trusted (`issuer`: its
        /// name as the certificate gives it, when it has one).
        case certificateIssuerUnknown(issuer: String?)
        /// The server's certificate is for other names than the host (`names`: the names and
        /// addresses it holds).
        case certificateNameMismatch(names: [String])
        /// The certificate was not accepted for another reason (`reason`: the TLS library's
        /// reason, in lower case words).
        case certificateRejected(reason: String)
        /// The server and Ferry have no TLS version in common.
        case protocolMismatch
        /// The server refused the handshake: no cipher in common (or, with TLS 1.2, a client
        /// certificate it wanted).
        case handshakeRefused
        /// The server wants a client certificate and none was given.
        case clientCertificateRequired
        /// The server did not accept the client certificate that was given.
        case clientCertificateRejected
        /// The server does not speak TLS on that port.
        case notTLS
        /// Any other handshake failure (`reason`: the TLS library's reason, in lower case words).
        case other(reason: String)

        /// What happened and what to do, naming `host`.
        ///
        /// - Parameter host: The host the handshake was with.
        public func description(host: String) -> String {
            let insecure = "or --insecure for a test server"
            switch self {
            case let .certificateExpired(notValidAfter):
                return "the certificate of \(host) expired on \(Self.format(notValidAfter)); "
                    + "the server must renew it (\(insecure))"
            case let .certificateNotYetValid(notValidBefore):
                return "the certificate of \(host) is not valid before \(Self.format(notValidBefore)); "
                    + "check this computer's clock (\(insecure))"
            case .certificateSelfSigned:
                return "the certificate of \(host) is self-signed and not trusted; "
                    + "--cacert FILE (that certificate) to trust it, \(insecure)"
            case let .certificateIssuerUnknown(issuer):
                let authority = issuer.map { " (\($0))" } ?? ""
                return "the certificate of \(host) is signed by an authority that is not trusted\(authority); "
                    + "--cacert FILE to trust its authority, \(insecure)"
            case let .certificateNameMismatch(names):
                let held = names.isEmpty ? "no names" : names.joined(separator: ", ")
                return "the certificate of \(host) is for other names (\(held)); "
                    + "use a URL with one of them, \(insecure)"
            case let .certificateRejected(reason):
                return "the certificate of \(host) was not accepted (\(reason)); "
                    + "--cacert FILE to trust its authority, \(insecure)"
            case .protocolMismatch:
                return "\(host) and Ferry have no TLS version in common; the server must offer TLS 1.2 or 1.3"
            case .handshakeRefused:
                return "\(host) refused the TLS handshake: no cipher in common, or it wants a client certificate "
                    + "(--cert FILE)"
            case .clientCertificateRequired:
                return "\(host) wants a client certificate: give one with --cert FILE (and --key FILE)"
            case .clientCertificateRejected:
                return "\(host) did not accept the client certificate; check --cert and --key, "
                    + "and that the server trusts its authority"
            case .notTLS:
                return "\(host) does not speak TLS on this port; check the URL (http:// rather than https://?)"
            case let .other(reason):
                return "the TLS handshake with \(host) failed (\(reason))"
            }
        }

        /// A time as `2026-11-23 18:20 UTC`.
        static func format(_ seconds: Int64) -> String {
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
        }
    }
}
