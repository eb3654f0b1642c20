import FileSystem
import Multipart

/// Everything that can go wrong with an upload job or the queue's journal.
///
/// Each case says what happened and, in `description`, what to do. `isRetryable` sorts errors
/// into those retried automatically (the network or the server may recover) and those that wait
/// for the user (retrying cannot help until something changes). `Codable`: the journal stores a
/// failed job's error typed (`JournaledError`), so a restored job is still retryable or not.
public enum UploadError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Building or streaming the multipart body failed: a file is missing, a directory, not a
    /// regular file, unreadable, changed or unreadable while it was sent, or a field name or
    /// header is invalid. Not retried automatically.
    case multipartFailed(MultipartError)
    /// A file of the job changed size or modification time since it was queued; it is not sent
    /// until the user retries the job (which accepts the file as it is now). Not retried
    /// automatically.
    case fileChangedSinceQueued(path: String)
    /// The job's URL, method or headers cannot make a request. Not retried automatically.
    case requestInvalid(reason: RequestReason)
    /// The connection failed, dropped or stalled before a response arrived. Retried
    /// automatically, except for TLS failures.
    case transferFailed(reason: TransferReason)
    /// The server answered with a status outside 200–299. 408, 429 and 5xx except 507 are
    /// retried automatically (honouring `retryAfter`); other statuses wait for the user.
    /// `message` is the reason the server gave in its body, kept for 507 Insufficient Storage
    /// and for an S3 XML error (``S3ErrorDocument``).
    case serverRejected(status: Int, retryAfter: Duration?, message: String? = nil)
    /// The server answered with a redirect (3xx) that was not followed: 301, 302 and 303 never
    /// are (an upload is never turned into a GET), 307 and 308 only with `-L`, at most
    /// `RedirectPolicy.maximumRedirects` times and never from https to http. Not retried
    /// automatically: the URL or the options must change.
    case redirectRefused(status: Int, reason: RedirectReason)
    /// The journal could not be opened, read or written, or another process has it open.
    case journalFailed(reason: JournalReason)
    /// A tus upload could not go on for `reason` (see `TusReason`). Not retried automatically.
    case tusFailed(reason: TusReason)
    /// The job was not sent: its endpoint (`endpoint`, an origin) refused another job's
    /// credentials with `status` (401, or 403 after an earlier success), and nothing could give
    /// new ones (`ferry send`). Not retried automatically: the credentials must change.
    case credentialsRefused(endpoint: String, status: Int)
    /// An error restored from a journal row that holds only its description: written before
    /// errors were stored typed, or in a shape this version cannot read.
    case recorded(description: String)

    /// Why a request could not be made.
    public enum RequestReason: Sendable, Hashable, Codable {
        /// The URL is not an `http` or `https` URL with a host.
        case invalidTarget(UploadTargetError)
        /// The method is empty or holds characters a method may not hold.
        case invalidMethod(String)
        /// A header is malformed or is one Ferry sets itself.
        case invalidHeader(RequestHeadersError)
        /// The proxy URL that applies to the request cannot be used (not `http://`, no host, a
        /// bad port).
        case invalidProxy(ProxyURLError)
    }

    /// How a transfer failed. Transports map their library's errors onto these.
    public enum TransferReason: Sendable, Hashable, Codable {
        /// The connection could not be established (unreachable, say; a refused connection and a
        /// failed DNS lookup have cases of their own).
        case connectFailed(message: String)
        /// Connecting took longer than the connect timeout.
        case connectTimedOut
        /// The connection closed or reset before the response was complete.
        case connectionLost(message: String)
        /// No bytes moved in either direction for the idle timeout.
        case idleTimedOut
        /// The TLS handshake failed (certificate not trusted, say). Not retried automatically.
        /// Kept for journals written before `tlsRejected`; new failures use that.
        case tlsFailed(message: String)
        /// The TLS handshake with `host` failed for `problem`: a certificate not trusted, expired
        /// or for other names, no protocol version in common, a client certificate wanted. Not
        /// retried automatically (it is not transient).
        case tlsRejected(host: String, problem: TLSProblem)
        /// A certificate or key file from the options (`option`: `--cacert`, `--capath`,
        /// `--cert`, `--key`) cannot be used: missing, unreadable, no PEM in it. Not retried
        /// automatically.
        case tlsFileUnusable(option: String, path: String, problem: String)
        /// The host name could not be resolved (DNS). Not retried automatically (a typo, mostly).
        case hostNotFound(host: String)
        /// Nothing listens on the port: the host refused the connection. Retried automatically
        /// (a restarting server answers so).
        case connectionRefused(host: String, port: Int)
        /// The server's reply is not HTTP (another protocol on that port): `beginning` is its
        /// first bytes, printable ones as they are and the rest escaped. Not retried
        /// automatically.
        case replyNotHTTP(host: String, beginning: String)
        /// The response's headers are larger than `limit` bytes, the most Ferry reads. Not
        /// retried automatically.
        case responseHeadersTooLarge(host: String, limit: Int)
        /// The reply began as HTTP but broke its rules (`problem` says how).
        case replyInvalid(host: String, problem: String)
        /// The queue was stopped (quit, a signal) after the whole body was sent and before the
        /// server answered: the server may have stored the upload. Never retried automatically:
        /// sending it again is the user's choice.
        case stoppedAfterSending
        /// The user cancelled after the body's last byte went to the server, before it answered:
        /// the server may have stored the upload. Never retried automatically.
        case cancelledAfterSending
        /// The attempt ended for `reason` (the connection lost, a timeout) after the body's last
        /// byte went to the server, before it answered: the server may have stored the upload.
        /// Never retried automatically.
        indirect case unansweredAfterSending(TransferReason)
        /// The attempt ended for `reason` after the body's last byte was handed to the
        /// connection, and the connection's evidence says the server never had the whole request:
        /// the last byte never left this machine, the server reset the connection (its
        /// application closed it with bytes unread), or it closed the connection while bytes of
        /// the request were still unacknowledged by its machine. Nothing can have been stored, so
        /// it is retried automatically like `reason`.
        indirect case incompleteAtServer(TransferReason)
        /// An earlier run ended (killed, crashed) after the body's last byte went to the server
        /// and before the answer was recorded; found in the journal when it was restored. The
        /// server may have stored the upload. Never retried automatically.
        case interruptedAfterSending
        /// Any other transport failure.
        case other(message: String)
        /// The proxy (`host:port`) could not be reached, or failed before it answered `CONNECT`.
        /// Retried automatically, like other connect failures.
        case proxyConnectFailed(proxy: String, message: String)
        /// The proxy (`host:port`) wants credentials, or refused those given: it answered 407
        /// (or 401 to `CONNECT`, as tinyproxy does for wrong credentials). Not retried
        /// automatically (the same credentials would be refused again).
        case proxyAuthenticationFailed(proxy: String, status: Int, credentialsGiven: Bool)
        /// The proxy (`host:port`) answered `CONNECT` to `target` (`host:port`) with a status
        /// outside 2xx other than 407. Retried automatically when the status is 5xx (the proxy
        /// could not reach the server, which may recover); otherwise not.
        case proxyRefusedTunnel(proxy: String, target: String, status: Int, reasonPhrase: String)
    }

    /// Why a redirect was not followed. Each names the server that answered by its host (and
    /// port when it is not the scheme's default).
    public enum RedirectReason: Sendable, Hashable, Codable {
        /// The server moved the endpoint to `location` (resolved against the URL it answered
        /// for): a 301, 302 or 303 (never followed), or a 307 or 308 without `-L`.
        case moved(server: String, location: String)
        /// The answer has no `Location` header (or an empty one).
        case missingLocation(server: String)
        /// The `Location` is not an `http` or `https` URL with a host, even resolved against the
        /// URL the server answered for.
        case unusableLocation(server: String, location: String)
        /// A redirect from `https` to `http` (the upload would travel unencrypted).
        case leavesHTTPS(server: String, location: String)
        /// The redirect would be one more than `limit` hops.
        case tooManyRedirects(limit: Int, server: String, location: String)
    }

    /// How the journal failed.
    public enum JournalReason: Sendable, Hashable, Codable {
        /// The database or its directory could not be created or opened.
        case openFailed(path: String, message: String)
        /// Reading the journal failed.
        case readFailed(message: String)
        /// Writing the journal failed.
        case writeFailed(message: String)
        /// The journal's database file was removed (or replaced) while it was open: nothing
        /// written to it can be read again.
        case removed(path: String)
        /// Another process has the journal open, so the rows earlier runs left cannot be taken
        /// over (they may be that process's live jobs).
        case inUse(path: String, processID: Int32?)
    }

    /// Whether the error is retried automatically (connection errors, timeouts, 408, 429, a 409
    /// with `Retry-After`, 5xx except 507: a full disk is not emptied by sending again).
    public var isRetryable: Bool {
        switch self {
        case let .transferFailed(reason):
            switch reason {
            // A host name that does not resolve is a typo far more often than a passing fault: not
            // retried, as curl does not. A refused port is retried: it is what a restarting server
            // answers.
            case .tlsFailed, .tlsRejected, .tlsFileUnusable, .stoppedAfterSending, .cancelledAfterSending,
                 .unansweredAfterSending, .interruptedAfterSending, .replyNotHTTP, .responseHeadersTooLarge,
                 .proxyAuthenticationFailed, .hostNotFound:
                return false
            case .connectFailed, .connectTimedOut, .connectionLost, .idleTimedOut, .connectionRefused,
                 .replyInvalid, .other, .proxyConnectFailed:
                return true
            case let .proxyRefusedTunnel(_, _, status, _):
                return (500...599).contains(status)
            case let .incompleteAtServer(reason):
                return UploadError.transferFailed(reason: reason).isRetryable
            }
        case let .serverRejected(status, retryAfter, _):
            // A 409 with Retry-After is a conflict that passes: a request with the same
            // Idempotency-Key still being received (the draft's answer), say.
            return status == 408 || status == 429 || (status == 409 && retryAfter != nil)
                || ((500...599).contains(status) && status != 507)
        case .redirectRefused, .multipartFailed, .fileChangedSinceQueued, .requestInvalid, .journalFailed, .recorded, .tusFailed,
             .credentialsRefused:
            return false
        }
    }

    /// Whether the error says the whole body may have reached the server without an answer
    /// (stopped, cancelled, lost or interrupted after sending): sending it again is the user's
    /// choice, never automatic.
    public var mayHaveArrived: Bool {
        guard case let .transferFailed(reason) = self else { return false }
        switch reason {
        case .stoppedAfterSending, .cancelledAfterSending, .unansweredAfterSending, .interruptedAfterSending: return true
        default: return false
        }
    }

    /// Whether the error says the connection proved the server never had the whole request
    /// (`TransferReason.incompleteAtServer`): nothing of it can have been stored.
    public var isIncompleteAtServer: Bool {
        guard case let .transferFailed(reason) = self else { return false }
        return reason.isIncompleteAtServer
    }

    /// Whether the error says a file changed since it was queued or while it was sent.
    public var isFileChanged: Bool {
        switch self {
        case .fileChangedSinceQueued: return true
        case .multipartFailed(.fileChanged): return true
        default: return false
        }
    }

    /// The `Retry-After` delay a server asked for, if any.
    public var retryAfter: Duration? {
        if case let .serverRejected(_, retryAfter, _) = self { return retryAfter }
        return nil
    }

    /// The path of the file the error is about, if any.
    public var path: String? {
        switch self {
        case let .fileChangedSinceQueued(path): return path
        case let .multipartFailed(.fileRejected(path, _)), let .multipartFailed(.fileChanged(path, _)),
             let .multipartFailed(.fileReadFailed(path, _)):
            return path
        case let .journalFailed(.openFailed(path, _)), let .journalFailed(.removed(path)): return path
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case let .multipartFailed(error):
            return error.description
        case let .fileChangedSinceQueued(path):
            return "\(FileSystemName.escaped(path)): changed since it was queued; retry the job to send its current content"
        case let .requestInvalid(reason):
            return reason.description
        case let .transferFailed(reason):
            return reason.description
        case let .serverRejected(507, _, message):
            let reason = message.map { ": \"\($0)\"" } ?? ""
            return "the server has no room for the upload (507 Insufficient Storage)\(reason); "
                + "not retried: free space on the server, then retry"
        case let .serverRejected(status, retryAfter, message):
            var text = "the server answered \(status)"
            if let retryAfter { text += " (Retry-After \(UploadError.format(retryAfter)))" }
            if let message { text += ": " + (message.hasSuffix(".") ? String(message.dropLast()) : message) }
            if isRetryable || (500...599).contains(status) {
                return text + "; retrying may help"
            }
            return text + "; check the URL, headers and fields, then retry"
        case let .redirectRefused(status, reason):
            return reason.description(status: status)
        case let .journalFailed(reason):
            return reason.description
        case let .recorded(description):
            return description
        case let .credentialsRefused(endpoint, status):
            return "not sent: \(endpoint) answered \(status) to an earlier upload (credentials wanted or refused); "
                + "give or change the credentials (the header, -u, --oauth2-bearer), then retry"
        case let .tusFailed(reason):
            return reason.description
        }
    }

    /// A duration as `N s`, or `N ms` when it is not a whole number of seconds.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds) ms"
    }
}

extension UploadError.TransferReason {
    /// Whether the connection proved the server never had the whole request (`incompleteAtServer`).
    public var isIncompleteAtServer: Bool {
        if case .incompleteAtServer = self { return true }
        return false
    }
}
