import FoundationEssentials
import Synchronization
import UploadModel
import UploadProtocols

/// The manager's handle on a transfer that is started off the root queue
/// (`UploadManager`'s file queue): a cancel that comes before the transport has its task is
/// kept and carried out as soon as the task exists, and a start not yet begun is skipped. The
/// file queue leaves here when the transfer began (`Beginning`) for the root queue to pick up on
/// its next progress tick or with the outcome, whichever comes first: a hop of its own for each
/// start cost more than a small file's upload. Safe to use from any thread.
final class TransferHandle: Sendable {
    /// When a transfer began and how long its body is (`UploadQueueStateMachine.transferBegan`).
    struct Beginning: Sendable {
        /// The body's length (a tus job's: the file's).
        let totalBytes: Int64
        /// The scheduler's instant at the start.
        let now: SchedulerInstant
        /// The wall-clock time at the start.
        let date: Date
    }

    private struct State {
        var task: (any TransportTask)?
        /// Left by the file queue, taken once by the root queue.
        var beginning: Beginning?
        var cancelled = false
        /// Whether the cancel also discards what the server kept for resuming.
        var discardsUpload = false
    }

    private let state = Mutex(State())

    /// Whether the transfer was cancelled (its start, if not begun, is skipped).
    var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// The transport's task for the transfer, now started; cancelled at once if the transfer
    /// already was.
    ///
    /// - Parameter task: The task.
    func started(_ task: any TransportTask) {
        let (cancelled, discardsUpload) = state.withLock { state in
            state.task = task
            return (state.cancelled, state.discardsUpload)
        }
        if cancelled { discardsUpload ? task.cancelDiscardingUpload() : task.cancel() }
    }

    /// Records that the transfer began (file queue), for `takeBeginning()`.
    ///
    /// - Parameter beginning: When, and the body's length.
    func began(_ beginning: Beginning) {
        state.withLock { $0.beginning = beginning }
    }

    /// When the transfer began, the first time this is asked after it did; nil before and after.
    func takeBeginning() -> Beginning? {
        state.withLock { state in
            defer { state.beginning = nil }
            return state.beginning
        }
    }

    /// Aborts the transfer now, or as soon as it has started.
    ///
    /// - Parameter discardingUpload: Whether what the server kept for resuming is removed too
    ///   (the job was cancelled or removed, not stopped).
    func cancel(discardingUpload: Bool = false) {
        let task = state.withLock { state in
            state.cancelled = true
            state.discardsUpload = discardingUpload
            return state.task
        }
        discardingUpload ? task?.cancelDiscardingUpload() : task?.cancel()
    }

    /// The body bytes the transport wrote so far (0 before it started).
    var bytesWritten: Int64 {
        state.withLock { $0.task }?.bytesWritten ?? 0
    }
}
