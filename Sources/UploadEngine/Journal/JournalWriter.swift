import Dispatch
import Synchronization
import UploadModel

/// Writes journal changes off the root queue, in order, in one transaction per batch: a batch
/// gathers the changes of `gatheringDelay` after the first, and a job's later update replaces its
/// earlier one in the batch (a small file's "uploading" and "succeeded" become one `UPDATE`).
///
/// A crash (not a quit: quitting waits for `waitUntilWritten()`) loses at most the last
/// `gatheringDelay` of changes; what must not be lost that way — a body that may have reached the
/// server, a success — the manager writes ahead as marks (`JournalMarkLog`) before it happens or
/// is shown, and a restore reads them against these rows.
///
/// A batch that cannot be written (a full disk, a read-only or removed journal) is kept and
/// written before the next one, tried again every `retryDelay`; the health handler hears of the
/// failure once and of the recovery once — when a batch was written and the journal's probe
/// (`UploadJournal.probe()`: a mark's space and a row) passes, since a failure reported from
/// outside (``reportFailure(_:)``) may have been in the marks.
final class JournalWriter: Sendable {
    private struct Pending {
        var changes: [JournalChange] = []
        /// Where each job's update waits in `changes`, for a later update to replace.
        var updateIndex: [UploadJobID: Int] = [:]
        var flushScheduled = false
        /// The mark log's size up to which every mark is in the rows once the next batch is
        /// written (``absorbMarks(upTo:)``).
        var marksToAbsorb: Int64?
    }

    /// What the writer's queue keeps between batches.
    private struct Failed {
        /// Changes that could not be written, oldest first; written before the next batch.
        var changes: [JournalChange] = []
        /// The last failure, while the journal cannot be written.
        var error: UploadError?
        /// Whether a retry is scheduled.
        var retryScheduled = false
    }

    /// How long a batch gathers changes before it is written.
    static let gatheringDelay = DispatchTimeInterval.milliseconds(10)
    /// How soon a batch that could not be written is tried again.
    static let retryDelay = DispatchTimeInterval.seconds(1)

    let journal: any JournalStore
    private let queue = DispatchQueue(label: "ferry.uploading.journal")
    private let pending = Mutex(Pending())
    private let failed = Mutex(Failed())
    private let healthHandler = Mutex<(@Sendable (UploadError?) -> Void)?>(nil)

    /// Creates a writer.
    ///
    /// - Parameter journal: The journal.
    init(journal: any JournalStore) {
        self.journal = journal
    }

    /// Sets what is called (on the writer's queue) when writing starts failing — with the
    /// error — and when it works again, with nil.
    ///
    /// - Parameter handler: The handler.
    func setHealthHandler(_ handler: @escaping @Sendable (UploadError?) -> Void) {
        healthHandler.withLock { $0 = handler }
    }

    /// Asks the next batch written to forget the marks up to `used` bytes of the mark log (the
    /// caller saw every attempt with a mark end and its change submitted).
    ///
    /// - Parameter used: The mark log's size then.
    func absorbMarks(upTo used: Int64) {
        let schedule = pending.withLock { state in
            state.marksToAbsorb = used
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule {
            queue.asyncAfter(deadline: .now() + Self.gatheringDelay) { self.flush() }
        }
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
            case .urlHonoursIdempotencyKeys:
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

    /// Blocks until every change submitted so far is written (or has failed to be: it is kept
    /// and tried again).
    ///
    /// - Returns: Whether the journal is written up to date: false while a batch is kept after a
    ///   failure, or a failure reported by ``reportFailure(_:)`` was not yet cleared by a write.
    @discardableResult
    func waitUntilWritten() -> Bool {
        queue.sync {
            self.flush()
            return failed.withLock { $0.error == nil }
        }
    }

    /// Writes every change submitted so far now, without the gathering delay, then calls
    /// `completion` on the writer's queue (also when the write failed: the change is kept and
    /// tried again, and the health handler hears of it).
    ///
    /// - Parameter completion: Called once the write was tried.
    func writeNow(then completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.flush()
            completion()
        }
    }

    /// A journal write outside the writer failed — the queueing insert, a write-ahead mark —:
    /// reported as a failure of the writer's own, so the health handler hears of it (unless it
    /// already had) and a batch, empty if nothing waits, is tried every `retryDelay`; the first
    /// one written reports the recovery.
    ///
    /// - Parameter error: The failure.
    func reportFailure(_ error: UploadError) {
        queue.async {
            let isNew = self.failed.withLock { failed in
                defer { if failed.error == nil { failed.error = error } }
                return failed.error == nil
            }
            if isNew { self.healthHandler.withLock { $0 }?(error) }
            self.scheduleRetry(after: error)
        }
    }

    /// Schedules the next try of a failed journal, unless one is scheduled or the journal was
    /// removed (it does not come back).
    private func scheduleRetry(after error: UploadError) {
        let retries = failed.withLock { failed in
            let retries = !failed.retryScheduled && error != .journalFailed(reason: .removed(path: journal.path))
            if retries { failed.retryScheduled = true }
            return retries
        }
        guard retries else { return }
        queue.asyncAfter(deadline: .now() + Self.retryDelay) {
            self.failed.withLock { $0.retryScheduled = false }
            self.flush()
        }
    }

    private func flush() {
        let (newChanges, marksToAbsorb) = pending.withLock { state in
            state.flushScheduled = false
            let changes = state.changes
            state.changes = []
            state.updateIndex = [:]
            defer { state.marksToAbsorb = nil }
            return (changes, state.marksToAbsorb)
        }
        let (batch, wasFailing) = failed.withLock { ($0.changes + newChanges, $0.error != nil) }
        guard !batch.isEmpty || wasFailing || marksToAbsorb != nil else { return }
        var written = false
        do throws(UploadError) {
            try journal.checkStillInPlace()
            try journal.apply(batch)
            written = true
            // A failure may have been elsewhere (`reportFailure`: an insert, a mark): recovered
            // only once both places can be written.
            if wasFailing { try journal.probe() }
        } catch {
            let isNew = failed.withLock { failed in
                failed.changes = written ? [] : batch
                defer { failed.error = error }
                return failed.error == nil
            }
            if isNew { healthHandler.withLock { $0 }?(error) }
            scheduleRetry(after: error)
            return
        }
        failed.withLock { $0 = Failed() }
        if let marksToAbsorb { journal.marks.reset(ifUsedIs: marksToAbsorb) }
        if wasFailing { healthHandler.withLock { $0 }?(nil) }
    }
}
