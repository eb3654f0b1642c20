import FoundationEssentials

extension HumanFormat {
    /// A fixed timestamp to the minute: `2026-11-22 05:13`.
    ///
    /// - Parameters:
    ///   - date: The moment.
    ///   - timeZone: The time zone to show it in (the system's by default).
    /// - Returns: The formatted timestamp.
    public static func timestamp(_ date: Date, timeZone: TimeZone = .current) -> String {
        let parts = components(of: date, in: timeZone)
        return "\(parts.year)-\(twoDigits(parts.month))-\(twoDigits(parts.day)) \(twoDigits(parts.hour)):\(twoDigits(parts.minute))"
    }

    /// A timestamp to the second: `2026-11-22 05:13:07`, for events such as upload attempts.
    ///
    /// - Parameters:
    ///   - date: The moment.
    ///   - timeZone: The time zone to show it in (the system's by default).
    /// - Returns: The formatted timestamp.
    public static func preciseTimestamp(_ date: Date, timeZone: TimeZone = .current) -> String {
        let parts = components(of: date, in: timeZone)
        return timestamp(date, timeZone: timeZone) + ":" + twoDigits(parts.second)
    }

    /// A date only: `2026-11-22`.
    ///
    /// - Parameters:
    ///   - date: The moment.
    ///   - timeZone: The time zone to show it in.
    /// - Returns: The formatted date.
    public static func date(_ date: Date, timeZone: TimeZone = .current) -> String {
        let parts = components(of: date, in: timeZone)
        return "\(parts.year)-\(twoDigits(parts.month))-\(twoDigits(parts.day))"
    }

    /// How long ago `date` was, for recent times: `just now`, `42s ago`, `5m ago`,
    /// `3h ago`, `6d ago`; older (7 days or more) or future times (more than a minute
    /// ahead, e.g. clock skew) fall back to ``timestamp(_:timeZone:)``.
    ///
    /// - Parameters:
    ///   - date: The moment, e.g. a file's modification time.
    ///   - now: The current time.
    ///   - timeZone: The time zone for the fallback timestamp.
    /// - Returns: The formatted time.
    public static func relative(_ date: Date, now: Date, timeZone: TimeZone = .current) -> String {
        let seconds = Int(now.timeIntervalSince(date).rounded(.down))
        switch seconds {
        case -60..<5: return "just now"
        case 5..<60: return "\(seconds)s ago"
        case 60..<3600: return "\(seconds / 60)m ago"
        case 3600..<86400: return "\(seconds / 3600)h ago"
        case 86400..<(7 * 86400): return "\(seconds / 86400)d ago"
        default: return timestamp(date, timeZone: timeZone)
        }
    }

    private static func components(
        of date: Date, in timeZone: TimeZone
    ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
