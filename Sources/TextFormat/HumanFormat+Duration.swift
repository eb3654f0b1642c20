extension HumanFormat {
    /// A duration in the two largest units: `0s`, `42s`, `1m05s`, `2h03m`, `3d04h`.
    ///
    /// - Parameter seconds: The duration in seconds (rounded to the nearest second).
    /// - Returns: The formatted duration, or `--` when negative or not finite.
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--" }
        guard seconds < Double(Int.max / 2) else { return "--" }
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total)s" }
        if total < 3600 { return "\(total / 60)m\(twoDigits(total % 60))s" }
        if total < 86400 { return "\(total / 3600)h\(twoDigits(total % 3600 / 60))m" }
        return "\(total / 86400)d\(twoDigits(total % 86400 / 3600))h"
    }

    /// A duration; see ``duration(seconds:)``.
    ///
    /// - Parameter duration: The duration.
    /// - Returns: The formatted duration.
    public static func duration(_ duration: Duration) -> String {
        let parts = duration.components
        return self.duration(seconds: Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
    }

    /// How long something short took: tenths of a second under 10 s (`0.3s`, `9.9s`), else
    /// ``duration(seconds:)``.
    ///
    /// - Parameter duration: The duration.
    /// - Returns: The formatted duration, or `--` when negative.
    public static func elapsed(_ duration: Duration) -> String {
        let parts = duration.components
        let seconds = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        guard seconds >= 0, seconds < 9.95 else { return self.duration(seconds: seconds) }
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)s"
    }

    /// The time left for a transfer: ``duration(seconds:)`` of the remaining bytes at the
    /// current rate, rounded up.
    ///
    /// - Parameters:
    ///   - remainingBytes: The bytes still to send.
    ///   - bytesPerSecond: The current rate.
    /// - Returns: The formatted time left, `0s` when nothing remains, or `--` when the rate
    ///   is zero or unknown.
    public static func eta<T: BinaryInteger>(remainingBytes: T, bytesPerSecond: Double) -> String {
        guard remainingBytes > 0 else { return "0s" }
        guard bytesPerSecond.isFinite, bytesPerSecond > 0 else { return "--" }
        return duration(seconds: (Double(remainingBytes) / bytesPerSecond).rounded(.up))
    }
}
