import Dispatch
import Synchronization

/// Writes journal changes off the root queue, in order, batching whatever accumulated while the
/// previous batch was written into one transaction.
final class JournalWriter: Sendable {
    private struct Pending {
        var changes: [JournalChange] = []
        var flushScheduled = false
    }

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
            state.changes.append(change)
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule {
            queue.async { self.flush() }
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
