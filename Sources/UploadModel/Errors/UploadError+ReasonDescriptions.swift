import Multipart

// What each reason says to the user.

extension UploadError.RequestReason: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invalidTarget(error): return error.description
        case let .invalidMethod(method): return "invalid HTTP method \(method.debugDescription): use a token such as POST or PUT"
        case let .invalidHeader(error): return error.description
        case let .invalidProxy(error): return error.description
        }
    }
}

extension UploadError.TransferReason: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .connectFailed(message): return "could not connect: \(message); check the host and port"
        case .connectTimedOut: return "connecting timed out; check the host and the network"
        case let .connectionLost(message): return "the connection was lost: \(message)"
        case .idleTimedOut: return "no data moved for the idle timeout; the server or network stalled"
        case let .tlsFailed(message): return "TLS failed: \(message); check the certificate (or --insecure for a test server)"
        case let .tlsRejected(host, problem): return problem.description(host: host)
        case let .tlsFileUnusable(option, path, problem): return "\(option) \(path): \(problem)"
        case let .hostNotFound(host): return "could not resolve host \(host); check the host name and the network"
        case let .connectionRefused(host, port):
            return "\(host) refused the connection on port \(port); check the port and that the server is running"
        case let .replyNotHTTP(host, beginning):
            return "the reply of \(host) is not HTTP: it began with \"\(beginning)\"; check the URL's scheme and port"
        case let .responseHeadersTooLarge(host, limit):
            return "the response headers of \(host) are larger than \(limit / 1024) KB, the most Ferry reads"
        case let .replyInvalid(host, problem): return "the reply of \(host) is not valid HTTP: \(problem)"
        case .stoppedAfterSending:
            return "stopped after the whole file was sent, before the server answered: it may have arrived; retry to send it again"
        case .cancelledAfterSending:
            return "cancelled after the whole file was sent, before the server answered: it may have arrived; retry to send it again"
        case let .unansweredAfterSending(reason):
            return "no answer after the whole file was sent (\(reason.description)): it may have arrived; retry to send it again"
        case let .incompleteAtServer(reason):
            return "\(reason.description); the server never had the whole file, so it cannot have stored it"
        case .interruptedAfterSending:
            return "Ferry ended after the whole file was sent, before the server's answer was recorded: "
                + "it may have arrived; retry to send it again"
        case let .other(message): return "the transfer failed: \(message)"
        case let .proxyConnectFailed(proxy, message): return "could not connect to the proxy \(proxy): \(message)"
        case let .proxyAuthenticationFailed(proxy, status, credentialsGiven):
            if credentialsGiven {
                return "the proxy at \(proxy) refused the credentials (\(status)): check the user and password in --proxy"
            }
            return "the proxy at \(proxy) wants credentials (\(status)): give them in --proxy http://user:password@\(proxy)"
        case let .proxyRefusedTunnel(proxy, target, status, reasonPhrase):
            let answer = reasonPhrase.isEmpty ? "\(status)" : "\(status) \(reasonPhrase)"
            return "the proxy at \(proxy) refused to connect to \(target) (\(answer))"
        }
    }
}

extension UploadError.RedirectReason {
    /// What happened, in words, for the redirect's status.
    ///
    /// - Parameter status: The 3xx status the server answered.
    /// - Returns: The text.
    func description(status: Int) -> String {
        switch self {
        case let .moved(server, location):
            let advice = status == 307 || status == 308 ? "-L follows it" : "send to that URL instead"
            return "the server at \(server) moved this endpoint to \(location) (\(status)); \(advice)"
        case let .missingLocation(server):
            return "the server at \(server) answered \(status) without a Location"
        case let .unusableLocation(server, location):
            return "the server at \(server) redirected (\(status)) to \(location.debugDescription), which is not an http:// or https:// URL"
        case let .leavesHTTPS(server, location):
            return "refused a redirect from https to http: \(location) (\(status) from \(server))"
        case let .tooManyRedirects(limit, server, location):
            return "gave up after \(limit) redirects (the last, \(status) from \(server), to \(location))"
        }
    }
}

extension UploadError.JournalReason: CustomStringConvertible {
    /// What to do about a journal failure, told apart by what SQLite or the system said: a
    /// damaged file, a full disk, refused permissions, or another cause.
    ///
    /// - Parameters:
    ///   - message: The failure's own words.
    ///   - path: The journal's path, when known.
    /// - Returns: The advice, in words.
    static func advice(for message: String, path: String?) -> String {
        let words = message.lowercased()
        if words.contains("not a database") || words.contains("malformed") || words.contains("corrupt") {
            let file = path ?? "the journal"
            return "the file is damaged: move it aside (mv \(file) \(file).damaged) and run again; a new journal is "
                + "made, and the jobs of the old one are no longer known to Ferry"
        }
        if words.contains("no space") || words.contains("disk is full") || words.contains("database or disk is full")
            || words.contains("quota") {
            return "the disk holding it is full: free some space there, or set XDG_STATE_HOME to a folder with room"
        }
        if words.contains("permission") || words.contains("read-only") || words.contains("readonly") || words.contains("access") {
            return "you may not write there: check the folder's owner and permissions, or set XDG_STATE_HOME to a folder of yours"
        }
        if words.contains("not a directory") {
            return "make it a folder, or set XDG_STATE_HOME to one"
        }
        return "check that the folder exists, is yours and has room, or set XDG_STATE_HOME to another"
    }

    public var description: String {
        switch self {
        case let .openFailed(path, message):
            return "could not open the journal at \(path): \(message); " + Self.advice(for: message, path: path)
        case let .readFailed(message): return "could not read the journal: \(message)"
        case let .writeFailed(message):
            return "could not write the journal: \(message); nothing new starts until it can be written ("
                + Self.advice(for: message, path: nil) + ")"
        case let .removed(path):
            return "the journal at \(path) was removed while Ferry used it; nothing new starts, "
                + "and what is in flight can no longer be recorded there"
        case let .inUse(path, processID):
            let holder = processID.map { "another ferry process (pid \($0))" } ?? "another ferry process"
            return "the journal at \(path) is in use by \(holder); its unfinished jobs are not restored "
                + "here, so nothing is sent twice: try again when that process has ended"
        }
    }
}
