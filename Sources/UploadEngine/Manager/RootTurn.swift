import Dispatch
import Glibc
import Synchronization
import UploadModel

/// The manager's one lock on its state: a turn that work takes one at a time, in the order it
/// was handed over — on the serial root queue (`ferry.uploading.root`), or right away on the
/// thread that hears a transfer's outcome when the turn is free and nothing waits for it
/// (``runNowOrHandOver(_:)``). A transport's event loop never waits here: when the turn is taken,
/// its work is handed to the queue instead. Safe to use from any thread.
final class RootTurn: Sendable {
    /// The queue the turn's work runs on unless it ran right away.
    let queue: DispatchQueue
    private let lock = Mutex(())
    /// Work handed to the queue that has not taken the turn yet: while there is any, work that
    /// could run right away is handed over behind it, so the turn keeps the order work came in.
    private let waiting = Atomic<Int>(0)
    /// The thread holding the turn (`pthread_self`), 0 while none does: what ``isHeldHere`` reads.
    private let holder = Atomic<UInt>(0)
    /// Whether the turn was taken on the thread that heard an outcome (``runNowOrHandOver(_:)``),
    /// not on the queue.
    private let takenInPassing = Atomic<Bool>(false)

    /// Creates a turn with its own serial queue.
    ///
    /// - Parameter label: The queue's label.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Whether the calling thread holds the turn (what the manager's state asserts in debug builds).
    var isHeldHere: Bool {
        holder.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Whether the work holding the turn may wait (for the journal writer): it runs on the root
    /// queue, not on the thread — perhaps an event loop — that heard an outcome.
    var mayWait: Bool {
        !takenInPassing.load(ordering: .relaxed)
    }

    /// Hands `body` to the queue, to run in the turn after everything handed over before it.
    ///
    /// - Parameter body: The work.
    func async(_ body: @escaping @Sendable () -> Void) {
        waiting.add(1, ordering: .sequentiallyConsistent)
        queue.async {
            self.take {
                self.waiting.subtract(1, ordering: .sequentiallyConsistent)
                body()
            }
        }
    }

    /// Runs `body` in the turn on the queue once `deadline` is reached; work handed over meanwhile
    /// does not wait for it.
    ///
    /// - Parameters:
    ///   - deadline: When.
    ///   - body: The work.
    func asyncAfter(deadline: DispatchTime, _ body: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: deadline) { self.take(body) }
    }

    /// Sets a timer through `scheduler` whose work runs in the turn; cancelled in the turn, it
    /// does not run afterwards (wherever the turn was taken).
    ///
    /// - Parameters:
    ///   - scheduler: The clock and timers.
    ///   - deadline: When the work runs.
    ///   - body: The work.
    /// - Returns: The timer.
    func schedule(
        _ scheduler: any UploadScheduler, at deadline: SchedulerInstant, _ body: @escaping @Sendable () -> Void
    ) -> any ScheduledTimer {
        let timer = RootTurnTimer()
        timer.wraps(scheduler.schedule(at: deadline, on: queue) {
            self.take { if !timer.isCancelled { body() } }
        })
        return timer
    }

    /// Waits for the turn on the queue, after everything handed over before, and runs `body` in
    /// it. **Must not** be called while holding the turn, nor on a transport's event loop.
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` returns.
    func sync<T>(_ body: () -> T) -> T {
        dispatchPrecondition(condition: .notOnQueue(queue))
        assert(!isHeldHere, "waiting for the root's turn while holding it")
        return queue.sync { take(body) }
    }

    /// Runs `body` on this thread now if the turn is free and no work waits for it, else hands it
    /// to the queue as ``async(_:)`` does. Never waits (but for the turn's own short steps being
    /// taken here): what a transport's event loop calls with an outcome.
    ///
    /// - Parameter body: The work.
    func runNowOrHandOver(_ body: @escaping @Sendable () -> Void) {
        let ran = lock.withLockIfAvailable { _ -> Bool in
            guard waiting.load(ordering: .sequentiallyConsistent) == 0 else { return false }
            takenInPassing.store(true, ordering: .relaxed)
            defer { takenInPassing.store(false, ordering: .relaxed) }
            held(body)
            return true
        } ?? false
        if !ran { async(body) }
    }

    private func take<T>(_ body: () -> T) -> T {
        // `withLock` hands its result over as `sending`; the turn's results stay on this thread.
        nonisolated(unsafe) var result: T?
        lock.withLock { _ in result = held(body) }
        return result!
    }

    private func held<T>(_ body: () -> T) -> T {
        holder.store(UInt(pthread_self()), ordering: .relaxed)
        defer { holder.store(0, ordering: .relaxed) }
        return body()
    }
}
