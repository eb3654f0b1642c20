/// A point on a scheduler's monotonic clock, in nanoseconds from an arbitrary origin.
///
/// The real scheduler reads `DispatchTime.now().uptimeNanoseconds`; `ManualScheduler` starts at
/// zero and moves only when a test advances it.
public struct SchedulerInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// Creates an instant.
    ///
    /// - Parameter nanoseconds: Nanoseconds since the clock's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The clock's origin.
    public static let zero = SchedulerInstant(nanoseconds: 0)

    public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant `duration` later.
    public static func + (lhs: SchedulerInstant, rhs: Duration) -> SchedulerInstant {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
        return SchedulerInstant(nanoseconds: overflow ? Int64.max : sum)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    public var description: String { "\(Duration.nanoseconds(nanoseconds))" }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at `Int64.max`.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? Int64.max : sum
    }

    /// The duration in seconds, as a floating-point number.
    package var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
