import FoundationEssentials

/// One ended attempt at sending a job: how it ended, when, and how far it got.
///
/// A job keeps its last ``UploadJob/maximumAttemptHistory`` attempts in
/// ``UploadJob/attemptHistory``, and the journal keeps them across runs, so the details view
/// lists every attempt with its error, not just the last one.
public struct UploadAttempt: Sendable, Hashable, Codable {
    /// How an attempt ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The server accepted the upload (2xx).
        case succeeded
        /// The server refused it, the transfer failed or the body could not be built.
        case failed
        /// The user cancelled the job while the attempt was in flight.
        case cancelled
        /// Ferry stopped while the attempt was in flight (quit, a signal, or a crash found on
        /// the next start); the job went back to the queue.
        case interrupted
    }

    /// The attempt's number, from 1 (``UploadJob/attempts`` when it started).
    public var number: Int
    /// How it ended.
    public var outcome: Outcome
    /// When the transfer began (wall clock); nil when the body could not be built, or the
    /// attempt was found interrupted by an earlier run that did not record it.
    public var startedAt: Date?
    /// From the transfer's start to the answer or the error; nil when it was cut short by a
    /// cancel or a stop, or never began.
    public var duration: Duration?
    /// Body bytes written before it ended.
    public var bytesSent: Int64
    /// The body's exact length, when the body was built.
    public var totalBytes: Int64?
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// What went wrong, for failed attempts: the error's description.
    public var error: String?
    /// The automatic retry that followed, if the queue scheduled one.
    public var retryDelay: Duration?

    /// Creates an attempt record.
    ///
    /// - Parameters:
    ///   - number: The attempt's number.
    ///   - outcome: How it ended.
    ///   - startedAt: When the transfer began.
    ///   - duration: How long it ran.
    ///   - bytesSent: Body bytes written.
    ///   - totalBytes: The body's length.
    ///   - status: The HTTP status.
    ///   - error: What went wrong.
    ///   - retryDelay: The automatic retry's delay.
    public init(
        number: Int,
        outcome: Outcome,
        startedAt: Date? = nil,
        duration: Duration? = nil,
        bytesSent: Int64 = 0,
        totalBytes: Int64? = nil,
        status: Int? = nil,
        error: String? = nil,
        retryDelay: Duration? = nil
    ) {
        self.number = number
        self.outcome = outcome
        self.startedAt = startedAt
        self.duration = duration
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
        self.status = status
        self.error = error
        self.retryDelay = retryDelay
    }
}
