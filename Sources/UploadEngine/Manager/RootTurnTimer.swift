import Synchronization

/// A timer whose work runs in the root's turn (``RootTurn/schedule(_:at:_:)``): cancelled in the
/// turn, its work does not run afterwards, even when it was already on its way to the queue
/// while the turn was taken on another thread. Safe to use from any thread.
final class RootTurnTimer: ScheduledTimer {
    private struct State {
        var cancelled = false
        var timer: (any ScheduledTimer)?
    }

    private let state = Mutex(State())

    /// Whether the timer was cancelled (its work, asked in the turn, does not run).
    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// The scheduler's timer this one stands for, cancelled with it.
    ///
    /// - Parameter timer: The scheduler's timer.
    func wraps(_ timer: any ScheduledTimer) {
        let cancelled = state.withLock { state in
            state.timer = timer
            return state.cancelled
        }
        if cancelled { timer.cancel() }
    }

    func cancel() {
        let timer = state.withLock { state in
            state.cancelled = true
            return state.timer
        }
        timer?.cancel()
    }
}
