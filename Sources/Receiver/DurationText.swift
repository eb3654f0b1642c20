/// Parses durations as people write them on a command line: `90` (seconds), `1.5`, `500ms`,
/// `30s`, `10m`, `24h`, `7d`.
public enum DurationText {
    /// Parses a duration.
    ///
    /// - Parameter text: A non-negative number with an optional unit (`ms`, `s`, `m`, `h`, `d`;
    ///   none means seconds), case-insensitive.
    /// - Returns: The duration (to the millisecond), or `nil` when `text` is not one or is
    ///   longer than 100 years.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.filter { $0 != " " }.lowercased()
        let numberPart = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !numberPart.isEmpty, let number = Double(numberPart), number >= 0 else { return nil }
        let seconds: Double
        switch trimmed.dropFirst(numberPart.count) {
        case "ms": seconds = number / 1000
        case "", "s": seconds = number
        case "m": seconds = number * 60
        case "h": seconds = number * 3600
        case "d": seconds = number * 86_400
        default: return nil
        }
        guard seconds <= 100 * 365 * 86_400 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
