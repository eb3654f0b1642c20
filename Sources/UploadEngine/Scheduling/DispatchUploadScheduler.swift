import Dispatch
import FoundationEssentials
import Synchronization
import UploadModel

/// The real scheduler: `DispatchTime` uptime for the monotonic clock, `Date()` for the wall clock,
/// `DispatchQueue.asyncAfter` for timers.
public struct DispatchUploadScheduler: UploadScheduler {
    /// Creates the scheduler.
    public init() {}

    public var now: SchedulerInstant {
        SchedulerInstant(nanoseconds: Int64(clamping: DispatchTime.now().uptimeNanoseconds))
    }

    public var currentDate: Date { Date() }

    public func schedule(
        at deadline: SchedulerInstant,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledTimer {
        let timer = DispatchTimer()
        let when = DispatchTime(uptimeNanoseconds: UInt64(max(0, deadline.nanoseconds)))
        queue.asyncAfter(deadline: when) {
            if !timer.isCancelled { work() }
        }
        return timer
    }
}

/// A timer set with `asyncAfter`: a cancelled flag the scheduled block checks before running.
final class DispatchTimer: ScheduledTimer {
    private let cancelled = Mutex(false)

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func cancel() {
        cancelled.withLock { $0 = true }
    }
}
