/// A job as the queue shows it: its spec, state, progress and history. A value: the manager
/// hands out copies in events and snapshots.
///
/// Read-only outside the upload modules (the engine sets it): the queue's projection of its
/// job. Its ``state`` and ``retryAt`` come from the phase the queue keeps for the job (waiting,
/// backing off until an instant, uploading an attempt, finished), set when the job enters a
/// phase; a job made elsewhere (the journal's restore, a test) takes everything from `init`.
public struct UploadJob: Sendable, Hashable, Identifiable {
    /// How many ended attempts ``attemptHistory`` keeps: the most recent ones.
    public static let maximumAttemptHistory = 20

    /// The job's stable ID.
    public let id: UploadJobID
    /// What is sent, and where.
    public package(set) var spec: UploadJobSpec
    /// Where the job is in its life.
    public package(set) var state: UploadJobState
    /// Progress of the current (or last) attempt.
    public package(set) var progress: UploadProgress
    /// Attempts started so far, in this run and earlier ones.
    public package(set) var attempts: Int
    /// Automatic retries used since the job was queued or last retried by the user.
    public package(set) var automaticRetries: Int
    /// When a job backing off before its automatic retry becomes eligible again, on the upload
    /// scheduler's monotonic clock (the interface counts down to it); nil in every other phase.
    public package(set) var retryAt: SchedulerInstant?
    /// Whether the job is queued but held back until the user releases it (a job an earlier run
    /// left unfinished, restored by the interface): new jobs start around it.
    public package(set) var isHeld: Bool
    /// The last error, the last response and the attempt history, which most queued jobs do not
    /// have yet: one pointer while they are empty, so a long queue stays small.
    private var outcome: Outcome?

    /// The error of the last failed attempt; cleared on success.
    public package(set) var lastError: UploadError? {
        get { outcome?.fields.lastError }
        set { changeOutcome { $0.lastError = newValue } }
    }

    /// The last response received, successful or not.
    public package(set) var response: UploadResponse? {
        get { outcome?.fields.response }
        set { changeOutcome { $0.response = newValue } }
    }

    /// The ended attempts, oldest first: the last ``maximumAttemptHistory`` of them. The
    /// attempt in flight is not there until it ends.
    public package(set) var attemptHistory: [UploadAttempt] {
        get { outcome?.fields.attemptHistory ?? [] }
        set { changeOutcome { $0.attemptHistory = newValue } }
    }

    /// Where the job's tus upload stands (upload URL, confirmed offset, notes); nil for
    /// multipart jobs and before a tus upload was begun.
    public package(set) var tus: TusCheckpoint? {
        get { outcome?.fields.tus }
        set { changeOutcome { $0.tus = newValue } }
    }

    /// Where a resumable request's upload stands (`--resumable`: the upload's URL, the body's
    /// boundary); nil until a server named one, and once the job succeeded.
    public package(set) var resumption: ResumableCheckpoint? {
        get { outcome?.fields.resumption }
        set { changeOutcome { $0.resumption = newValue } }
    }

    /// Creates a job.
    ///
    /// - Parameters:
    ///   - id: The job's ID.
    ///   - spec: What is sent.
    ///   - state: The state; new jobs are queued.
    ///   - progress: The progress.
    ///   - attempts: Attempts started so far.
    ///   - automaticRetries: Automatic retries used.
    ///   - lastError: The last error.
    ///   - response: The last response.
    ///   - attemptHistory: The ended attempts, oldest first.
    ///   - tus: Where its tus upload stands.
    ///   - resumption: Where its resumable request's upload stands.
    ///   - isHeld: Whether the queued job is held back until released.
    public init(
        id: UploadJobID,
        spec: UploadJobSpec,
        state: UploadJobState = .queued,
        progress: UploadProgress = UploadProgress(),
        attempts: Int = 0,
        automaticRetries: Int = 0,
        lastError: UploadError? = nil,
        response: UploadResponse? = nil,
        attemptHistory: [UploadAttempt] = [],
        tus: TusCheckpoint? = nil,
        resumption: ResumableCheckpoint? = nil,
        isHeld: Bool = false
    ) {
        self.id = id
        self.spec = spec
        self.state = state
        self.progress = progress
        self.attempts = attempts
        self.automaticRetries = automaticRetries
        self.retryAt = nil
        self.isHeld = isHeld && state == .queued
        self.outcome = Outcome.make(Outcome.Fields(lastError: lastError, response: response, attemptHistory: attemptHistory, tus: tus,
                                                   resumption: resumption))
    }

    /// Adds an ended attempt to ``attemptHistory``, dropping the oldest beyond
    /// ``maximumAttemptHistory``.
    ///
    /// - Parameter attempt: The attempt.
    package mutating func recordAttempt(_ attempt: UploadAttempt) {
        var history = attemptHistory
        history.append(attempt)
        if history.count > Self.maximumAttemptHistory {
            history.removeFirst(history.count - Self.maximumAttemptHistory)
        }
        attemptHistory = history
    }

    /// Whether the job was stopped because one of its files changed since it was queued (or
    /// while it was read). Such a job is never sent until the user retries it.
    public var isFileChanged: Bool {
        lastError?.isFileChanged ?? false
    }

    /// Whether the job failed after its whole body was sent and before the server answered —
    /// stopped, cancelled, the connection lost, or the program killed
    /// (``UploadError/mayHaveArrived``): the server may have stored it, so sending it again is
    /// the user's explicit choice. The journal keeps the typed error, so this survives a restart.
    public var mayHaveArrived: Bool {
        state == .failed && lastError?.mayHaveArrived == true
    }

    /// Whether the server can say what it holds of the job's body: it goes as a resumable upload
    /// whose URL the server named, so sending it again asks the server first (`HEAD`) and sends
    /// only what it does not hold — nothing, when it holds it all.
    public var serverCanSayWhatArrived: Bool {
        spec.sendsResumably && resumption != nil
    }

    /// Replaces ``outcome`` with a changed copy (nil when everything in it is empty).
    private mutating func changeOutcome(_ body: (inout Outcome.Fields) -> Void) {
        var fields = outcome?.fields ?? Outcome.Fields()
        body(&fields)
        outcome = Outcome.make(fields)
    }

    /// The part of a job that most queued jobs lack. Immutable: copies of a job share it, and a
    /// change makes a new one.
    private final class Outcome: Sendable, Hashable {
        struct Fields: Sendable, Hashable {
            var lastError: UploadError?
            var response: UploadResponse?
            var attemptHistory: [UploadAttempt] = []
            var tus: TusCheckpoint?
            var resumption: ResumableCheckpoint?
        }

        let fields: Fields

        private init(_ fields: Fields) {
            self.fields = fields
        }

        /// The outcome holding these values, or nil when there is nothing to hold.
        static func make(_ fields: Fields) -> Outcome? {
            guard fields != Fields() else { return nil }
            return Outcome(fields)
        }

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            lhs === rhs || lhs.fields == rhs.fields
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fields)
        }
    }
}
