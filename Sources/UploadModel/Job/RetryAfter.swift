import FoundationEssentials

/// Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
public enum RetryAfter {
    /// The delay a `Retry-After` value asks for.
    ///
    /// - Parameters:
    ///   - value: The header value: `120`, or `Sun, 06 Nov 1994 08:49:37 GMT` (also the obsolete
    ///     RFC 850 and asctime date forms).
    ///   - now: The current wall-clock time; a date in the past gives zero.
    /// - Returns: The delay, or nil when the value is neither form.
    public static func delay(from value: String, now: Date) -> Duration? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int64(text) else { return .seconds(Int64.max / 1_000_000_000) }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded(.up))) : .zero
    }
}
