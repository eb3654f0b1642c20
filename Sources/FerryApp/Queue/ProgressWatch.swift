import UploadModel

/// When each job in flight last moved a byte, and what that means for the speed shown: the
/// engine reports progress only when bytes move, so a stalled transfer would keep its last rate
/// for ever. Pure: the instants come from ``AppMessage/clockTicked(_:)``.
public struct ProgressWatch: Hashable, Sendable {
    /// How long without a byte before a transfer counts as stalled.
    public static let stallThreshold = Duration.seconds(3)
    /// How long without a byte is normal between two progress reports; the shown speed starts
    /// to fall after it, reaching 0 at ``stallThreshold``.
    public static let quietAllowance = Duration.seconds(1)

    /// A job in flight: its bytes sent and when that count last changed.
    private struct Mark: Hashable, Sendable {
        var bytesSent: Int64
        var movedAt: SchedulerInstant
    }

    private var marks: [UploadJobID: Mark] = [:]

    /// Creates an empty watch.
    public init() {}

    /// Notes a job as an event describes it.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - now: The clock's latest reading; without one nothing can be timed.
    public mutating func record(_ job: UploadJob, at now: SchedulerInstant?) {
        guard job.state == .uploading, let now else {
            marks[job.id] = nil
            return
        }
        if marks[job.id]?.bytesSent != job.progress.bytesSent {
            marks[job.id] = Mark(bytesSent: job.progress.bytesSent, movedAt: now)
        }
    }

    /// Forgets a job (it was removed).
    ///
    /// - Parameter id: The job.
    public mutating func forget(_ id: UploadJobID) {
        marks[id] = nil
    }

    /// How long a job in flight has moved no byte, once that is at least ``stallThreshold``.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - now: The clock's latest reading.
    /// - Returns: The time since its last byte, or `nil` when it is not stalled.
    public func stall(of job: UploadJob, at now: SchedulerInstant?) -> Duration? {
        guard let idle = idleTime(of: job, at: now), idle >= Self.stallThreshold else { return nil }
        return idle
    }

    /// The speed to show for a job in flight: the engine's rate, falling linearly to 0 between
    /// ``quietAllowance`` and ``stallThreshold`` without a byte.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - now: The clock's latest reading.
    /// - Returns: Bytes per second, or `nil` when the engine has no rate yet.
    public func shownRate(of job: UploadJob, at now: SchedulerInstant?) -> Double? {
        guard let rate = job.progress.bytesPerSecond else { return nil }
        guard let idle = idleTime(of: job, at: now), idle > Self.quietAllowance else { return rate }
        let fading = Self.stallThreshold - Self.quietAllowance
        let left = max(.zero, Self.stallThreshold - idle)
        return rate * (left / fading)
    }

    private func idleTime(of job: UploadJob, at now: SchedulerInstant?) -> Duration? {
        guard job.state == .uploading, let now, let mark = marks[job.id] else { return nil }
        return now - mark.movedAt
    }
}
