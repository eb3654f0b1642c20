import Dispatch
import Foundation
import Synchronization
import Uploading

/// Ends `ferry send` before its queue is done — on SIGINT, SIGTERM or SIGHUP, or when standard
/// output can no longer be written — without losing a job: the manager is stopped (requests in
/// flight are aborted and their jobs go back to queued), the journal is written and closed, the
/// reason goes to standard error and the process exits.
///
/// The run ends one way only: the first of ``end(because:status:)``,
/// ``endSoon(because:status:)`` and ``finishNormally()`` wins and the others do nothing.
final class SendTermination: Sendable {
    private static let running = 0, terminating = 1, finishing = 2

    private let manager: UploadManager
    private let journal: UploadJournal?
    private let events: DispatchQueue
    private let phase = Atomic(SendTermination.running)

    /// Creates the termination for one run.
    ///
    /// - Parameters:
    ///   - manager: The run's manager.
    ///   - journal: Its journal, if any.
    ///   - events: The serial queue events are printed on; pending prints finish before exit.
    init(manager: UploadManager, journal: UploadJournal?, events: DispatchQueue) {
        self.manager = manager
        self.journal = journal
        self.events = events
    }

    /// Whether the run is ending early: events are no longer printed.
    var isTerminating: Bool { phase.load(ordering: .acquiring) == Self.terminating }

    /// Stops everything and exits with `status`, after writing `ferry: REASON; unfinished jobs
    /// are kept for ferry send --resume` to standard error.
    ///
    /// **Must not** be called on the events queue (it waits for that queue to drain); see
    /// ``endSoon(because:status:)``.
    ///
    /// - Parameters:
    ///   - reason: Why the run ends early.
    ///   - status: The exit status.
    func end(because reason: String, status: Int32) {
        guard claim(for: Self.terminating) else { return }
        shutDown(because: reason, status: status)
    }

    /// Like ``end(because:status:)``, from any queue (the events queue included): the run is
    /// marked as ending at once, the work is done on a global queue.
    ///
    /// - Parameters:
    ///   - reason: Why the run ends early.
    ///   - status: The exit status.
    func endSoon(because reason: String, status: Int32) {
        guard claim(for: Self.terminating) else { return }
        DispatchQueue.global().async { self.shutDown(because: reason, status: status) }
    }

    /// Called when the queue is idle and every event is printed, before the summary: from then
    /// on signals and output failures no longer end the run early. If the run is already
    /// ending early, the process exits from there and this never returns.
    func finishNormally() async {
        guard claim(for: Self.finishing) else {
            while true { try? await Task.sleep(for: .seconds(60)) }
        }
    }

    private func claim(for next: Int) -> Bool {
        phase.compareExchange(expected: Self.running, desired: next, ordering: .acquiringAndReleasing).exchanged
    }

    private func shutDown(because reason: String, status: Int32) -> Never {
        manager.stop()
        manager.flushJournal()
        try? journal?.close()
        events.sync {}
        StandardStream.error.writeLineIgnoringFailure("ferry: \(reason); unfinished jobs are kept for `ferry send --resume`")
        exit(status)
    }
}
