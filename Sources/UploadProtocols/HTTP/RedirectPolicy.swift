import FoundationEssentials
import Multipart
import UploadModel

/// What Ferry does with a redirect (3xx) answered to an upload, as curl does for a request whose
/// method and body must not change.
///
/// - 307 and 308 are followed with `-L` (`ConnectionOptions.followsRedirects`): the same
///   method, headers and whole body go to `Location`, resolved against the URL that answered
///   (RFC 3986), at most `maximumRedirects` times and never from https to http.
/// - 301, 302 and 303 are never followed: clients turn them into a GET, which would drop the
///   upload. They fail the job, naming the new `Location`, as does any other 3xx.
///
/// Pure: the transport asks it whether to follow; the queue asks it why a 3xx it was given
/// was not followed.
public enum RedirectPolicy {
    /// The most redirects one request follows (curl's `--max-redirs` is 50; browsers stop
    /// at 20; an upload re-sends its whole body at each hop, so Ferry stops sooner).
    public static let maximumRedirects = 10

    /// What to do with a 3xx.
    public enum Decision: Sendable, Hashable {
        /// Send the request again to this URL.
        case follow(UploadTarget)
        /// Do not follow; the job fails for this reason.
        case refuse(UploadError.RedirectReason)
    }

    /// Decides what to do with an answer.
    ///
    /// - Parameters:
    ///   - status: The answer's status.
    ///   - location: Its `Location` header, if any.
    ///   - current: The URL the request was sent to (the job's, or the last redirect's).
    ///   - redirectsSoFar: How many redirects this request has followed already.
    ///   - followsRedirects: Whether `-L` was given.
    /// - Returns: The decision, or nil when the status is not a redirect (not 3xx).
    public static func decide(
        status: Int, location: String?, from current: UploadTarget, redirectsSoFar: Int, followsRedirects: Bool
    ) -> Decision? {
        guard (300...399).contains(status) else { return nil }
        let server = current.hostHeader
        guard let location = location?.trimmingWhitespace(), !location.isEmpty else {
            return .refuse(.missingLocation(server: server))
        }
        let resolved = resolve(location, against: current)
        guard status == 307 || status == 308, followsRedirects else {
            return .refuse(.moved(server: server, location: resolved?.url ?? location))
        }
        guard let resolved else { return .refuse(.unusableLocation(server: server, location: location)) }
        if current.scheme == "https" && resolved.scheme == "http" {
            return .refuse(.leavesHTTPS(server: server, location: resolved.url))
        }
        guard redirectsSoFar < maximumRedirects else {
            return .refuse(.tooManyRedirects(limit: maximumRedirects, server: server, location: resolved.url))
        }
        return .follow(resolved)
    }

    /// Resolves a `Location` against the URL that answered, as RFC 3986 section 5.2 resolves a
    /// reference against its base (`/new`, `new`, `../new`, `?x=1`, `//host/new` and absolute URLs).
    ///
    /// - Parameters:
    ///   - location: The header's value.
    ///   - current: The URL the request was sent to.
    /// - Returns: The resolved URL, or nil when it is not an `http` or `https` URL with a host.
    public static func resolve(_ location: String, against current: UploadTarget) -> UploadTarget? {
        guard let base = URL(string: current.url), let resolved = URL(string: location, relativeTo: base) else { return nil }
        return try? UploadTarget(resolved.absoluteString, assumingHTTP: false)
    }

    /// The headers a followed redirect sends: the same, except that when it goes to another
    /// origin (scheme, host or port) the credentials (`Authorization`, `Cookie`) are dropped,
    /// as curl drops them without `--location-trusted`, and `Host` names the new server (a
    /// `Host` the user set is kept only within the origin, as curl keeps it).
    ///
    /// - Parameters:
    ///   - headers: The headers sent to `current`.
    ///   - current: The URL that answered with the redirect.
    ///   - next: The URL the redirect goes to.
    /// - Returns: The headers for `next`, in the same order.
    public static func headers(_ headers: [HeaderField], from current: UploadTarget, to next: UploadTarget) -> [HeaderField] {
        guard !isSameOrigin(current, next) else { return headers }
        return headers.compactMap { header in
            switch header.name.lowercased() {
            case "authorization", "cookie": return nil
            case "host": return HeaderField(name: header.name, value: next.hostHeader)
            default: return header
            }
        }
    }

    /// Whether two URLs have the same scheme, host (case-insensitively) and port (the
    /// scheme's default when none is written).
    private static func isSameOrigin(_ one: UploadTarget, _ other: UploadTarget) -> Bool {
        func port(_ target: UploadTarget) -> Int { target.port ?? (target.scheme == "https" ? 443 : 80) }
        return one.scheme == other.scheme && one.host.lowercased() == other.host.lowercased() && port(one) == port(other)
    }

    /// Why an answer that is not a success and that the transport did not follow is an error:
    /// a refused redirect (see `decide`) for a 3xx, otherwise the server's rejection.
    ///
    /// - Parameters:
    ///   - response: The answer, with the redirects followed to reach it.
    ///   - jobURL: The job's URL (the first request's).
    ///   - followsRedirects: Whether `-L` was given.
    ///   - retryAfter: The delay its `Retry-After` asks for, already resolved.
    /// - Returns: The error.
    public static func error(
        for response: UploadResponse, jobURL: String, followsRedirects: Bool, retryAfter: Duration?
    ) -> UploadError {
        let current = try? UploadTarget(response.redirects.last ?? jobURL)
        guard let current, let decision = decide(
            status: response.status, location: response.value(forHeader: "Location"), from: current,
            redirectsSoFar: response.redirects.count, followsRedirects: followsRedirects
        ) else {
            // The server's own words: an S3 error document's, else the first lines of a text or
            // JSON answer.
            let message = S3ErrorDocument(body: response.body)?.description ?? response.reasonText
            return .serverRejected(status: response.status, retryAfter: retryAfter, message: message)
        }
        switch decision {
        case let .refuse(reason):
            return .redirectRefused(status: response.status, reason: reason)
        case let .follow(target):
            // A transport that does not follow redirects handed over one `-L` would follow.
            return .redirectRefused(status: response.status, reason: .moved(server: current.hostHeader, location: target.url))
        }
    }
}
