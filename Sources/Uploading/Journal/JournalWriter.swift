import Dispatch
import Synchronization

/// Writes journal changes off the root queue, in order, in one transaction per batch: a batch
/// gathers the changes of `gatheringDelay` after the first, and a job's later update replaces its
/// earlier one in the batch (a small file's "uploading" and "succeeded" become one `UPDATE`).
///
/// The price is that a crash (not a quit: quitting waits for `waitUntilWritten()`) loses at most
/// the last `gatheringDelay` of changes; a job whose success was lost so is sent again by
/// `--resume`, as one whose answer had not arrived yet would be.
final class JournalWriter: Sendable {
    private struct Pending {
        var changes: [JournalChange] = []
        /// Where each job's update waits in `changes`, for a later update to replace.
        var updateIndex: [UploadJobID: Int] = [:]
        var flushScheduled = false
    }

    /// How long a batch gathers changes before it is written.
    static let gatheringDelay = DispatchTimeInterval.milliseconds(10)

    let journal: UploadJournal
    private let queue = DispatchQueue(label: "ferry.uploading.journal")
    private let pending = Mutex(Pending())
    private let errorHandler = Mutex<(@Sendable (UploadError) -> Void)?>(nil)

    /// Creates a writer.
    ///
    /// - Parameter journal: The journal.
    init(journal: UploadJournal) {
        self.journal = journal
    }

    /// Sets what is called (on the writer's queue) when a batch fails.
    ///
    /// - Parameter handler: The handler.
    func setErrorHandler(_ handler: @escaping @Sendable (UploadError) -> Void) {
        errorHandler.withLock { $0 = handler }
    }

    /// Queues a change; it is written soon, after every change submitted before it.
    ///
    /// - Parameter change: The change.
    func submit(_ change: JournalChange) {
        let schedule = pending.withLock { state in
            switch change {
            case let .update(job, includingSpec):
                if let index = state.updateIndex[job.id], case let .update(_, earlierIncludedSpec) = state.changes[index] {
                    state.changes[index] = .update(job, includingSpec: includingSpec || earlierIncludedSpec)
                } else {
                    state.updateIndex[job.id] = state.changes.count
                    state.changes.append(change)
                }
            case let .delete(ids):
                // An update after the delete must not be merged into one before it.
                for id in ids { state.updateIndex[id] = nil }
                state.changes.append(change)
            }
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule {
            queue.asyncAfter(deadline: .now() + Self.gatheringDelay) { self.flush() }
        }
    }

    /// Blocks until every change submitted so far is written.
    func waitUntilWritten() {
        queue.sync { self.flush() }
    }

    private func flush() {
        let batch = pending.withLock { state in
            state.flushScheduled = false
            let changes = state.changes
            state.changes = []
            state.updateIndex = [:]
            return changes
        }
        guard !batch.isEmpty else { return }
        do {
            try journal.apply(batch)
        } catch {
            let handler = errorHandler.withLock { $0 }
            handler?(error)
        }
    }
}
