import Foundation

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
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int64(text) else { return .seconds(Int64.max / 1_000_000_000) }
            return .seconds(seconds)
        }
        guard let date = httpDate(text) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .milliseconds(Int64((interval * 1000).rounded(.up))) : .zero
    }

    /// Parses the three HTTP-date forms, always in GMT.
    ///
    /// - Parameter text: The date text.
    /// - Returns: The date, or nil.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
