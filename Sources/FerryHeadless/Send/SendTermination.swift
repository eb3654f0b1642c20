import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import UploadModel
import UploadEngine
import UploadJournal

/// Ends `ferry send` before its queue is done — on SIGINT, SIGTERM or SIGHUP, or when standard
/// output can no longer be written — without losing a job: the manager is stopped (requests in
/// flight are aborted and their jobs go back to queued), the journal is written and closed, the
/// reason goes to standard error and the process exits.
///
/// The run ends one way only: the first of ``end(because:status:)``,
/// ``endSoon(because:status:)`` and ``finishNormally()`` moves the run out of
/// ``Phase/running`` and the others do nothing.
public final class SendTermination: Sendable {
    private let phase = Atomic(Phase.running)
    private let shutDown: @Sendable (_ reason: String, _ status: Int32) -> Void

    /// Creates the termination for one run of `ferry send`: ending early waits until the run's
    /// files are all queued (recorded in the journal), stops `manager`, writes `journal`, hands
    /// every event to `events` (each job's outcome is printed before exit), runs `closing` with
    /// the summary on `events`, closes the journal, writes `ferry: REASON; unfinished jobs are
    /// kept for ferry send --resume` to standard error and exits with the status.
    ///
    /// - Parameters:
    ///   - manager: The run's manager.
    ///   - journal: Its journal, if any.
    ///   - events: The serial queue events are printed on; pending prints finish before exit.
    ///   - queueing: Entered while the run is still queueing its files; left when every file is
    ///     queued (or queueing failed).
    ///   - closing: Prints the summary of the interrupted run, on `events`, after every event.
    public convenience init(manager: UploadManager, journal: UploadJournal?, events: DispatchQueue,
                            queueing: DispatchGroup, closing: @escaping @Sendable (UploadSummary) -> Void) {
        self.init { reason, status in
            // A file not yet queued would be missing from `--resume`.
            queueing.wait()
            manager.stop()
            manager.flushJournal()
            let summary = manager.deliverEventsNow()
            events.sync { closing(summary) }
            try? journal?.close()
            StandardStream.error.writeLineIgnoringFailure("ferry: \(reason); unfinished jobs are kept for `ferry send --resume`")
            exit(status)
        }
    }

    /// Creates a termination that ends the run with `shutDown`.
    ///
    /// - Parameter shutDown: Ends the run early, called at most once, with the reason and the
    ///   exit status; `ferry send`'s ends the process.
    public init(shutDown: @escaping @Sendable (_ reason: String, _ status: Int32) -> Void) {
        self.shutDown = shutDown
    }

    /// Where the run is: still running, ending early, or finishing normally.
    public var currentPhase: Phase { phase.load(ordering: .acquiring) }


    /// Ends the run early with `status` (see ``init(manager:journal:events:)``), unless it is
    /// already ending or finishing.
    ///
    /// **Must not** be called on the events queue (it waits for that queue to drain); see
    /// ``endSoon(because:status:)``.
    ///
    /// - Parameters:
    ///   - reason: Why the run ends early.
    ///   - status: The exit status.
    public func end(because reason: String, status: Int32) {
        guard claim(.endingEarly) else { return }
        shutDown(reason, status)
    }

    /// Like ``end(because:status:)``, from any queue (the events queue included): the run is
    /// marked as ending at once, the work is done on a global queue.
    ///
    /// - Parameters:
    ///   - reason: Why the run ends early.
    ///   - status: The exit status.
    public func endSoon(because reason: String, status: Int32) {
        guard claim(.endingEarly) else { return }
        DispatchQueue.global().async { self.shutDown(reason, status) }
    }

    /// Called when the queue is idle and every event is printed, before the summary: from then
    /// on signals and output failures no longer end the run early. If the run is already
    /// ending early, this waits for the process to exit and never returns.
    public func finishNormally() async {
        guard claim(.finishingNormally) else {
            while true { try? await Task.sleep(for: .seconds(60)) }
        }
    }

    /// Moves the run out of ``Phase/running`` into `next`.
    ///
    /// - Returns: Whether this call moved it (false when another way of ending came first).
    private func claim(_ next: Phase) -> Bool {
        phase.compareExchange(expected: .running, desired: next, ordering: .acquiringAndReleasing).exchanged
    }
}
