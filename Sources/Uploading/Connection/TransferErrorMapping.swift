import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Maps SwiftNIO's errors onto `UploadError.TransferReason`, in words.
enum TransferErrorMapping {
    /// The reason an error stands for.
    ///
    /// - Parameter error: An error from connecting, the channel, TLS or the HTTP decoder.
    static func reason(for error: any Error) -> UploadError.TransferReason {
        switch error {
        case ChannelError.connectTimeout:
            return .connectTimedOut
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .connectFailed(message: "\(error.host) could not be resolved")
            }
            let cause = error.connectionErrors.first.map { message(for: $0.error) } ?? "no address to connect to"
            return .connectFailed(message: "\(cause) (\(error.host):\(error.port))")
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            return .tlsFailed(message: String(describing: error))
        case let error as HTTPParserError:
            return .other(message: "the server's reply is not valid HTTP (\(error))")
        default:
            return isConnectionDrop(error) ? .connectionLost(message: message(for: error)) : .other(message: message(for: error))
        }
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
        default:
            return String(describing: error)
        }
    }
}
