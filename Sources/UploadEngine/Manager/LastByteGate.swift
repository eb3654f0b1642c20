import Synchronization
import UploadModel

/// Decides, for one attempt, whether the body's last byte may go to the server — the one moment
/// after which the server may store the upload — against a cancel, a stop or a journal that
/// cannot record it, under one lock so that exactly one of them wins.
///
/// The transport asks `pass()` just before it writes the last byte (`UploadTransport`'s
/// `bodyCompleting`); the manager calls `close()` before it aborts the attempt. Passing writes
/// the `bodyMayComplete` mark first (``JournalMarkLog``), so the journal knows before the server
/// can. Safe to use from any thread.
final class LastByteGate: Sendable {
    /// Where the gate is.
    enum Position: Sendable, Equatable {
        /// The last byte has not been asked for; it may still be.
        case open
        /// The last byte was let go (and marked): the body may have completed.
        case passed
        /// Closed before the last byte was asked for: it never goes.
        case closed
        /// The last byte was held back because its mark could not be written.
        case unrecorded
    }

    private let mark: JournalMark
    private let marks: (any JournalMarkStore)?
    private let position = Mutex(Position.open)

    /// Creates an open gate for an attempt.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - marks: Where the mark goes; nil without a journal.
    init(job id: UploadJobID, attempt: Int, marks: (any JournalMarkStore)?) {
        self.mark = .bodyMayComplete(id, attempt: attempt)
        self.marks = marks
    }

    /// The transport is about to write the last byte: lets it go (marking it first) unless the
    /// gate was closed or the mark cannot be written. Asked again for a re-sent body, it answers
    /// as it did.
    ///
    /// - Returns: Whether the last byte may be written.
    func pass() -> Bool {
        position.withLock { position in
            guard position == .open else { return position == .passed }
            position = (marks?.append(mark) ?? true) ? .passed : .unrecorded
            return position == .passed
        }
    }

    /// Closes the gate before an abort.
    ///
    /// - Returns: Whether the last byte had already been let go (the body may have completed).
    @discardableResult
    func close() -> Bool {
        position.withLock { position in
            if position == .open { position = .closed }
            return position == .passed
        }
    }

    /// Where the gate is now.
    var current: Position {
        position.withLock { $0 }
    }
}
