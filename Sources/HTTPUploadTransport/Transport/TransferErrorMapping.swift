import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import UploadModel
import Glibc

/// Maps SwiftNIO's errors onto `UploadError.TransferReason`, in words that name the host and
/// hold no type names, library names or build paths.
enum TransferErrorMapping {
    /// The most response bytes kept to show the beginning of a reply that is not HTTP.
    static let shownReplyBytes = 20

    /// NIO's limit on a response's header bytes (`NIOHTTPDecoderConfiguration`'s default).
    static let responseHeadersLimit = 80 * 1024

    /// The reason a connect error stands for (resolving, connecting, the connect timeout).
    ///
    /// - Parameters:
    ///   - error: An error from connecting.
    ///   - host: The host connected to, for errors that do not carry it (a refused connection
    ///     to an address, which needs no resolver).
    ///   - port: Its port.
    static func reason(for error: any Error, host: String? = nil, port: Int? = nil) -> UploadError.TransferReason {
        switch error {
        case ChannelError.connectTimeout:
            return .connectTimedOut
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            guard let host, let port else { return .connectFailed(message: "connection refused") }
            return .connectionRefused(host: host, port: port)
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .hostNotFound(host: error.host)
            }
            let errors = error.connectionErrors.map(\.error)
            if !errors.isEmpty, errors.allSatisfy({ ($0 as? IOError)?.errnoCode == ECONNREFUSED }) {
                return .connectionRefused(host: error.host, port: error.port)
            }
            let cause = errors.first.map { message(for: $0) } ?? "no address to connect to"
            return .connectFailed(message: "\(cause) (\(error.host):\(error.port))")
        default:
            return isConnectionDrop(error) ? .connectionLost(message: message(for: error)) : .other(message: message(for: error))
        }
    }

    /// The reason an error on an open connection stands for: a failed TLS handshake, a reply
    /// that is not HTTP, a dropped connection.
    ///
    /// - Parameters:
    ///   - error: An error from the channel, TLS or the HTTP decoder.
    ///   - host: The host the connection is to.
    ///   - replyBeginning: The first bytes the server sent in this exchange (up to
    ///     `shownReplyBytes`), for a reply that is not HTTP.
    ///   - responseHeadReceived: Whether a response head was decoded in this exchange.
    ///   - peerCertificate: The server's certificate, when TLS received one.
    ///   - now: The current time, seconds since 1970 (to tell an expired certificate).
    static func reason(for error: any Error, host: String, replyBeginning: [UInt8], responseHeadReceived: Bool,
                       peerCertificate: PeerCertificateFacts?, now: Int64) -> UploadError.TransferReason {
        switch error {
        case let NIOSSLError.handshakeFailed(.sslError(stack)), let NIOSSLError.handshakeFailed(.unknownError(stack)),
             let BoringSSLError.sslError(stack), let BoringSSLError.unknownError(stack):
            let reasons = stack.compactMap { TLSFailureDiagnosis.reasonName(in: $0.description) }
            return .tlsRejected(host: host, problem: TLSFailureDiagnosis.problem(reasons: reasons, certificate: peerCertificate, now: now))
        case NIOSSLError.handshakeFailed:
            return .tlsRejected(host: host, problem: .other(reason: "the server ended the handshake"))
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return .tlsRejected(host: host, problem: .certificateNameMismatch(names: peerCertificate?.names ?? []))
        case NIOSSLError.uncleanShutdown:
            return .connectionLost(message: "the server closed the connection without ending TLS")
        case is NIOSSLError, is NIOSSLExtraError:
            return .tlsRejected(host: host, problem: .other(reason: "the TLS connection failed"))
        case HTTPParserError.headerOverflow:
            return .responseHeadersTooLarge(host: host, limit: responseHeadersLimit)
        case let error as NIOHTTP2Errors.StreamClosed:
            return .connectionLost(message: "\(host) reset the request's HTTP/2 stream (\(streamResetReason(error.errorCode)))")
        case is any NIOHTTP2Error:
            return .replyInvalid(host: host, problem: "its HTTP/2 frames broke the protocol")
        case let error as HTTPParserError:
            if !responseHeadReceived, !replyBeginning.isEmpty, !looksLikeHTTP(replyBeginning) {
                return .replyNotHTTP(host: host, beginning: printable(replyBeginning))
            }
            return .replyInvalid(host: host, problem: error.debugDescription)
        default:
            return reason(for: error, host: host)
        }
    }

    /// An HTTP/2 error code in words.
    static func streamResetReason(_ code: HTTP2ErrorCode) -> String {
        switch code {
        case .noError: "no error"
        case .protocolError: "a protocol error"
        case .internalError: "an internal error"
        case .flowControlError: "a flow control error"
        case .streamClosed: "the stream was closed"
        case .refusedStream: "refused"
        case .cancel: "cancelled"
        case .enhanceYourCalm: "too many requests at once"
        default: "error code \(code.networkCode)"
        }
    }

    /// Whether a reply's first bytes could begin an HTTP/1 status line (`HTTP/`).
    static func looksLikeHTTP(_ beginning: [UInt8]) -> Bool {
        let prefix = Array("HTTP/".utf8)
        return beginning.prefix(prefix.count).elementsEqual(prefix.prefix(min(prefix.count, beginning.count)))
    }

    /// Bytes as text to quote: printable ASCII as it is (`"` and `\` escaped), CR, LF and tab as
    /// `\r`, `\n`, `\t`, anything else as `\xNN`; `…` after `shownReplyBytes` bytes.
    static func printable(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes.prefix(shownReplyBytes) {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\t"): text += "\\t"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return bytes.count > shownReplyBytes ? text + "…" : text
    }

    /// Whether the error is the connection closing or resetting under the request (as opposed to
    /// a timeout, a protocol error or a TLS failure).
    static func isConnectionDrop(_ error: any Error) -> Bool {
        if let error = error as? IOError {
            return [ECONNRESET, EPIPE, ECONNABORTED, ENOTCONN].contains(error.errnoCode)
        }
        switch error {
        case ChannelError.ioOnClosedChannel, ChannelError.outputClosed, ChannelError.inputClosed, ChannelError.eof,
             ChannelError.alreadyClosed:
            return true
        default:
            return false
        }
    }

    /// Whether `error` says the peer reset the connection (a TCP RST: `ECONNRESET`, or `EPIPE`
    /// on a write after it), as opposed to closing it in order.
    static func isPeerReset(_ error: any Error) -> Bool {
        guard let error = error as? IOError else { return false }
        return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
    }

    /// A short description of an error: the system's words for an `errno`, NIO's otherwise.
    static func message(for error: any Error) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNRESET: return "the server reset the connection"
            case EPIPE: return "the server closed the connection"
            case ECONNREFUSED: return "connection refused"
            default: return String(cString: strerror(error.errnoCode)).lowercased()
            }
        }
        switch error {
        case ChannelError.ioOnClosedChannel, ChannelError.alreadyClosed, ChannelError.eof:
            return "the connection was closed"
        case ChannelError.connectTimeout:
            return "connecting timed out"
        default:
            return "an unexpected network error"
        }
    }
}
