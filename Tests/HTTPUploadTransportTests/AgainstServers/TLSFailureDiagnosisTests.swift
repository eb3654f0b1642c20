import Foundation
import NIOCore
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadJournal
import TestSupport

/// The pure parts of TLS and broken-server errors: BoringSSL's reasons and the server's
/// certificate turned into a problem, the texts users read, and the journal's round trip.
@Suite("TLS failures and broken replies, without a network")
struct TLSFailureDiagnosisTests {
    static let now: Int64 = 1_800_000_000
    static let valid = PeerCertificateFacts(notValidBefore: now - 86_400, notValidAfter: now + 86_400, isSelfIssued: false,
                                            issuer: "Corp CA", names: ["a.example"])

    @Test("the reason name is read out of BoringSSL's error text, whatever its path and line")
    func reasonName() {
        let text = "Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at /x/.build/checkouts/swift-nio-ssl/Sources/CNIOBoringSSL/ssl/handshake.cc:320"
        #expect(TLSFailureDiagnosis.reasonName(in: text) == "CERTIFICATE_VERIFY_FAILED")
        #expect(TLSFailureDiagnosis.reasonName(in: "EOF during handshake") == nil)
    }

    @Test("each reason is the problem it names", arguments: [
        ("TLSV1_ALERT_PROTOCOL_VERSION", UploadError.TLSProblem.protocolMismatch),
        ("UNSUPPORTED_PROTOCOL", .protocolMismatch),
        ("NO_SHARED_CIPHER", .handshakeRefused),
        ("SSLV3_ALERT_HANDSHAKE_FAILURE", .handshakeRefused),
        ("TLSV1_ALERT_CERTIFICATE_REQUIRED", .clientCertificateRequired),
        ("TLSV1_ALERT_UNKNOWN_CA", .clientCertificateRejected),
        ("SSLV3_ALERT_BAD_CERTIFICATE", .clientCertificateRejected),
        ("WRONG_VERSION_NUMBER", .notTLS),
        ("SOMETHING_ELSE", .other(reason: "something else")),
    ])
    func reasons(reason: String, problem: UploadError.TLSProblem) {
        #expect(TLSFailureDiagnosis.problem(reasons: [reason], certificate: nil, now: Self.now) == problem)
    }

    @Test("a failed verification: the dates first, then a certificate that signed itself, then its issuer")
    func certificateProblems() {
        var expired = Self.valid
        expired.notValidAfter = Self.now - 1
        expired.isSelfIssued = true
        #expect(TLSFailureDiagnosis.certificateProblem(expired, now: Self.now) == .certificateExpired(notValidAfter: Self.now - 1))
        var early = Self.valid
        early.notValidBefore = Self.now + 60
        #expect(TLSFailureDiagnosis.certificateProblem(early, now: Self.now) == .certificateNotYetValid(notValidBefore: Self.now + 60))
        var lonely = Self.valid
        lonely.isSelfIssued = true
        #expect(TLSFailureDiagnosis.certificateProblem(lonely, now: Self.now) == .certificateSelfSigned)
        #expect(TLSFailureDiagnosis.certificateProblem(Self.valid, now: Self.now) == .certificateIssuerUnknown(issuer: "Corp CA"))
        #expect(TLSFailureDiagnosis.problem(reasons: ["CERTIFICATE_VERIFY_FAILED"], certificate: Self.valid, now: Self.now)
            == .certificateIssuerUnknown(issuer: "Corp CA"))
        #expect(TLSFailureDiagnosis.certificateProblem(nil, now: Self.now) == .certificateRejected(reason: "it could not be verified"))
    }

    @Test("nginx's 400 pages for a missing or refused client certificate are those TLS problems; other 400s are not")
    func nginxClientCertificatePages() {
        func page(_ title: String, status: Int = 400) -> UploadResponse {
            UploadResponse(status: status, body: Array("<html><head><title>400 \(title)</title></head></html>".utf8))
        }
        #expect(NginxClientCertificateAnswer.problem(in: page("No required SSL certificate was sent")) == .clientCertificateRequired)
        #expect(NginxClientCertificateAnswer.problem(in: page("The SSL certificate error")) == .clientCertificateRejected)
        #expect(NginxClientCertificateAnswer.problem(in: page("Bad Request")) == nil)
        #expect(NginxClientCertificateAnswer.problem(in: page("No required SSL certificate was sent", status: 200)) == nil)
    }

    @Test("a refused connection to an address names the host and port it was given")
    func refusedAddress() {
        let refused = IOError(errnoCode: ECONNREFUSED, reason: "connect")
        #expect(TransferErrorMapping.reason(for: refused, host: "127.0.0.1", port: 8443) == .connectionRefused(host: "127.0.0.1", port: 8443))
    }

    @Test("a reply's first bytes are shown printable and escaped, cut after 20 bytes")
    func printable() {
        #expect(TransferErrorMapping.printable(Array("SSH-2.0\r\n".utf8)) == #"SSH-2.0\r\n"#)
        #expect(TransferErrorMapping.printable([0x16, 0x03, 0x01, 0x22, 0x5C]) == #"\x16\x03\x01\"\\"#)
        #expect(TransferErrorMapping.printable(Array(repeating: 0x61, count: 21)) == String(repeating: "a", count: 20) + "…")
        #expect(TransferErrorMapping.looksLikeHTTP(Array("HTTP/1.1 200".utf8)))
        #expect(TransferErrorMapping.looksLikeHTTP(Array("HT".utf8)))
        #expect(!TransferErrorMapping.looksLikeHTTP(Array("SSH-2.0".utf8)))
    }

    @Test("every new reason reads in words naming the host, is not retried (but DNS and refusals are), and survives the journal")
    func textsAndJournal() throws {
        let reasons: [UploadError.TransferReason] = [
            .tlsRejected(host: "h.example", problem: .certificateExpired(notValidAfter: 1_577_923_200)),
            .tlsRejected(host: "h.example", problem: .certificateNotYetValid(notValidBefore: 3_786_912_000)),
            .tlsRejected(host: "h.example", problem: .certificateSelfSigned),
            .tlsRejected(host: "h.example", problem: .certificateIssuerUnknown(issuer: nil)),
            .tlsRejected(host: "h.example", problem: .certificateNameMismatch(names: ["a.example", "10.0.0.1"])),
            .tlsRejected(host: "h.example", problem: .certificateRejected(reason: "it could not be verified")),
            .tlsRejected(host: "h.example", problem: .protocolMismatch),
            .tlsRejected(host: "h.example", problem: .handshakeRefused),
            .tlsRejected(host: "h.example", problem: .clientCertificateRequired),
            .tlsRejected(host: "h.example", problem: .clientCertificateRejected),
            .tlsRejected(host: "h.example", problem: .notTLS),
            .tlsRejected(host: "h.example", problem: .other(reason: "bad record mac")),
            .replyNotHTTP(host: "h.example", beginning: "SSH-2.0"),
            .responseHeadersTooLarge(host: "h.example", limit: 81_920),
            .replyInvalid(host: "h.example", problem: "invalid character in header"),
            .hostNotFound(host: "h.example"),
            .connectionRefused(host: "h.example", port: 8443),
        ]
        for reason in reasons {
            let error = UploadError.transferFailed(reason: reason)
            #expect(error.description.contains("h.example"), "\(error.description)")
            PlainWords.expectInPlainWords(error.description)
            let retried: Bool = switch reason {
            case .connectionRefused, .replyInvalid: true
            default: false
            }
            #expect(error.isRetryable == retried, "\(error.description)")
            let stored = try JSONEncoder().encode(JournaledError(error))
            #expect(try JSONDecoder().decode(JournaledError.self, from: stored).error == error)
        }
        #expect(UploadError.transferFailed(reason: reasons[0]).description
            == "the certificate of h.example expired on 2020-01-02 00:00 UTC; the server must renew it (or --insecure for a test server)")
        #expect(UploadError.transferFailed(reason: .tlsFileUnusable(option: "--cacert", path: "/x/ca.pem", problem: "no such file")).description
            == "--cacert /x/ca.pem: no such file")
        let old = Data(#"{"version":1,"error":{"transferFailed":{"reason":{"tlsFailed":{"message":"untrusted"}}}}}"#.utf8)
        #expect(try JSONDecoder().decode(JournaledError.self, from: old).error == .transferFailed(reason: .tlsFailed(message: "untrusted")))
    }
}
