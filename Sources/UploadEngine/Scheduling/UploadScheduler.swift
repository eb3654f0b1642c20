import Dispatch
import FoundationEssentials
import UploadModel

/// Where the queue gets its time from: a monotonic clock, the wall clock, and one-shot timers.
///
/// Injected into `UploadManager` so retry backoff and progress throttling are tested by advancing
/// a `ManualScheduler` instead of sleeping.
public protocol UploadScheduler: Sendable {
    /// The current instant on the monotonic clock.
    var now: SchedulerInstant { get }
    /// The current wall-clock time (for `Retry-After` HTTP-dates).
    var currentDate: Date { get }

    /// Runs `work` on `queue` once `deadline` is reached.
    ///
    /// - Parameters:
    ///   - deadline: When to run, on this scheduler's monotonic clock.
    ///   - queue: The queue `work` must run on.
    ///   - work: The work.
    /// - Returns: A handle that cancels the timer if it has not fired yet.
    func schedule(
        at deadline: SchedulerInstant,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledTimer
}

/// A timer set through an `UploadScheduler`.
public protocol ScheduledTimer: Sendable {
    /// Stops the timer from firing; does nothing if it fired already.
    ///
    /// Cancelling on the timer's own queue guarantees the work does not run afterwards.
    func cancel()
}
