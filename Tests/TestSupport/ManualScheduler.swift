import Dispatch
import Foundation
import Synchronization
import UploadModel
import UploadEngine

/// An `UploadScheduler` whose clock moves only when a test advances it.
///
/// Timers fire during `advance(by:)`/`advance(to:)`, in deadline order (ties in scheduling
/// order), each run synchronously on its queue with `now` set to its deadline; timers set by a
/// firing timer fire in the same advance if they are due. Never call `advance` from a queue a
/// timer runs on.
public final class ManualScheduler: UploadScheduler {
    private struct Entry {
        let sequence: Int
        let deadline: SchedulerInstant
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private struct State {
        var now = SchedulerInstant.zero
        var entries: [Int: Entry] = [:]
        var nextSequence = 0
    }

    private let state = Mutex(State())
    private let startDate: Date

    /// Creates a scheduler at instant zero.
    ///
    /// - Parameter startDate: The wall-clock time at instant zero.
    public init(startDate: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.startDate = startDate
    }

    public var now: SchedulerInstant {
        state.withLock { $0.now }
    }

    public var currentDate: Date {
        startDate.addingTimeInterval(Double(now.nanoseconds) / 1e9)
    }

    public func schedule(
        at deadline: SchedulerInstant,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> any ScheduledTimer {
        let sequence = state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.entries[sequence] = Entry(sequence: sequence, deadline: deadline, queue: queue, work: work)
            return sequence
        }
        return ManualTimer(scheduler: self, sequence: sequence)
    }

    /// The deadlines of the timers not yet fired or cancelled, earliest first.
    public var pendingDeadlines: [SchedulerInstant] {
        state.withLock { $0.entries.values.map(\.deadline).sorted() }
    }

    /// How many timers are pending.
    public var pendingCount: Int {
        state.withLock { $0.entries.count }
    }

    /// Moves the clock forward, firing the timers that come due on the way.
    ///
    /// - Parameter duration: How far.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves the clock to `target` (never backwards), firing the timers due by then.
    ///
    /// - Parameter target: The new instant.
    public func advance(to target: SchedulerInstant) {
        while true {
            let next: Entry? = state.withLock { state in
                guard let entry = state.entries.values
                    .filter({ $0.deadline <= target })
                    .min(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) })
                else { return nil }
                state.entries[entry.sequence] = nil
                state.now = max(state.now, entry.deadline)
                return entry
            }
            guard let next else { break }
            next.queue.sync(execute: next.work)
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    fileprivate func cancel(_ sequence: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: sequence) }
    }
}

/// A timer of a `ManualScheduler`.
private struct ManualTimer: ScheduledTimer {
    let scheduler: ManualScheduler
    let sequence: Int

    func cancel() {
        scheduler.cancel(sequence)
    }
}
