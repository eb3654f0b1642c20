import NIOCore
import UploadModel

/// How long a connection may wait unused in the pool after an answer, given the server's
/// `Keep-Alive: timeout=N` hint (sent by Node, Apache and others; nginx sends none).
///
/// A server closes an idle connection after its own timeout; a client that reuses it at that very
/// moment sends a request into a closing connection. Before the request's last byte that is
/// re-sent on a new connection; after it, it is "may have arrived" and the user is asked. So
/// Ferry closes its side a second before the server would, and never reuses a connection the
/// server keeps for a second or less.
enum KeepAliveHint {
    /// The margin kept below the server's timeout.
    static let margin = TimeAmount.seconds(1)

    /// The pooled idle limit for a connection after `response`.
    ///
    /// - Parameters:
    ///   - response: The answer that ended the connection's last exchange.
    ///   - limit: Ferry's own idle limit.
    /// - Returns: The smaller of `limit` and the server's hint less ``margin``; nil when the hint
    ///   leaves no time (the connection is closed instead of pooled).
    static func idleLimit(after response: UploadResponse, default limit: TimeAmount) -> TimeAmount? {
        guard let value = response.value(forHeader: "Keep-Alive"), let seconds = timeout(in: value) else { return limit }
        let hinted = TimeAmount.seconds(seconds) - margin
        guard hinted > .zero else { return nil }
        return min(limit, hinted)
    }

    /// The `timeout` parameter of a `Keep-Alive` header value (`timeout=5, max=1000`), in whole
    /// seconds; nil when absent or not a number.
    static func timeout(in value: String) -> Int64? {
        func trimmed(_ text: Substring) -> Substring {
            text.drop { $0 == " " || $0 == "\t" || $0 == "\"" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\"" }
                .reversed().reduce(into: Substring()) { $0.append($1) }
        }
        for parameter in value.split(separator: ",") {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(trimmed)
            guard pair.count == 2, pair[0].lowercased() == "timeout" else { continue }
            return Int64(pair[1])
        }
        return nil
    }
}
