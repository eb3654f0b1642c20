import Dispatch
import Synchronization

/// Carries a transfer's progress reports onto the root queue, coalescing them: however often the
/// transport reports, at most one hop is pending and it delivers the latest value.
final class ProgressRelay: Sendable {
    private struct State {
        var latest: Int64 = 0
        var delivered: Int64 = 0
        var hopPending = false
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let deliver: @Sendable (Int64) -> Void

    /// Creates a relay.
    ///
    /// - Parameters:
    ///   - queue: The queue `deliver` runs on.
    ///   - deliver: Receives the latest cumulative byte count.
    init(queue: DispatchQueue, deliver: @escaping @Sendable (Int64) -> Void) {
        self.queue = queue
        self.deliver = deliver
    }

    /// The last count handed to `deliver`.
    var latestDelivered: Int64 {
        state.withLock { $0.delivered }
    }

    /// Records a report from any thread.
    ///
    /// - Parameter bytes: Cumulative bytes written.
    func report(_ bytes: Int64) {
        let hop = state.withLock { state in
            state.latest = bytes
            if state.hopPending { return false }
            state.hopPending = true
            return true
        }
        guard hop else { return }
        queue.async {
            let latest = self.state.withLock { state in
                state.hopPending = false
                state.delivered = state.latest
                return state.latest
            }
            self.deliver(latest)
        }
    }
}
