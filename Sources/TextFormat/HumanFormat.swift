/// Short human-readable text for sizes, rates, durations and times, as the interface shows
/// them in narrow columns. Deterministic: no locale, IEC units, ASCII digits.
public enum HumanFormat {
    static let byteUnits = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// A byte count in IEC units: `0 B`, `1023 B`, `1.0 KiB`, `1.2 MiB`, `12.3 MiB`,
    /// `123 MiB`. One decimal below 100 units, none from 100 up; a value that rounds to
    /// 1024 moves to the next unit.
    ///
    /// - Parameter count: The number of bytes (negative shows with a minus sign).
    /// - Returns: The formatted size.
    public static func bytes<T: BinaryInteger>(_ count: T) -> String {
        let sign = count < 0 ? "-" : ""
        let magnitude = UInt64(clamping: count.magnitude)
        if magnitude < 1024 { return "\(sign)\(magnitude) B" }
        return sign + scaled(Double(magnitude))
    }

    /// A transfer rate: `512 B/s`, `1.2 MiB/s`.
    ///
    /// - Parameter bytesPerSecond: The rate.
    /// - Returns: The formatted rate, or `--` when it is negative or not finite.
    public static func rate(bytesPerSecond: Double) -> String {
        guard bytesPerSecond.isFinite, bytesPerSecond >= 0 else { return "--" }
        if bytesPerSecond < 1024 { return "\(Int(bytesPerSecond.rounded())) B/s" }
        return scaled(bytesPerSecond) + "/s"
    }

    /// A percentage rounded down, so 100% shows only when done: `0%`, `42%`, `100%`.
    ///
    /// - Parameter fraction: The fraction, 0 to 1 (clamped; NaN is 0).
    /// - Returns: The formatted percentage.
    public static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return fraction == .infinity ? "100%" : "0%" }
        let clamped = min(1, max(0, fraction))
        return "\(Int((clamped * 100).rounded(.down)))%"
    }

    /// Formats `value` (≥ 1024) with the unit that keeps it below 1024.
    private static func scaled(_ value: Double) -> String {
        var value = value
        var unit = 0
        while value >= 1024 && unit < byteUnits.count - 1 {
            value /= 1024
            unit += 1
        }
        if value < 100 {
            let tenths = Int((value * 10).rounded())
            if tenths < 1000 { return "\(tenths / 10).\(tenths % 10) \(byteUnits[unit])" }
        }
        let whole = Int(value.rounded())
        if whole >= 1024 && unit < byteUnits.count - 1 { return "1.0 \(byteUnits[unit + 1])" }
        return "\(whole) \(byteUnits[unit])"
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
