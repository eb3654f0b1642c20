/// A job as the queue sees it: its spec, state, progress and history. A value: the manager hands
/// out copies in events and snapshots.
public struct UploadJob: Sendable, Hashable, Identifiable {
    /// How many ended attempts ``attemptHistory`` keeps: the most recent ones.
    public static let maximumAttemptHistory = 20

    /// The job's stable ID.
    public let id: UploadJobID
    /// What is sent, and where.
    public var spec: UploadJobSpec
    /// Where the job is in its life.
    public var state: UploadJobState
    /// Progress of the current (or last) attempt.
    public var progress: UploadProgress
    /// Attempts started so far, in this run and earlier ones.
    public var attempts: Int
    /// Automatic retries used since the job was queued or last retried by the user.
    public var automaticRetries: Int
    /// The error of the last failed attempt; cleared on success.
    public var lastError: UploadError?
    /// The last response received, successful or not.
    public var response: UploadResponse?
    /// The ended attempts, oldest first: the last ``maximumAttemptHistory`` of them. The
    /// attempt in flight is not there until it ends.
    public var attemptHistory: [UploadAttempt]
    /// When a job waiting for an automatic retry becomes eligible again; nil otherwise.
    public var retryAt: SchedulerInstant?

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
    public init(
        id: UploadJobID,
        spec: UploadJobSpec,
        state: UploadJobState = .queued,
        progress: UploadProgress = UploadProgress(),
        attempts: Int = 0,
        automaticRetries: Int = 0,
        lastError: UploadError? = nil,
        response: UploadResponse? = nil,
        attemptHistory: [UploadAttempt] = []
    ) {
        self.id = id
        self.spec = spec
        self.state = state
        self.progress = progress
        self.attempts = attempts
        self.automaticRetries = automaticRetries
        self.lastError = lastError
        self.response = response
        self.attemptHistory = attemptHistory
        self.retryAt = nil
    }

    /// Adds an ended attempt to ``attemptHistory``, dropping the oldest beyond
    /// ``maximumAttemptHistory``.
    ///
    /// - Parameter attempt: The attempt.
    public mutating func recordAttempt(_ attempt: UploadAttempt) {
        attemptHistory.append(attempt)
        if attemptHistory.count > Self.maximumAttemptHistory {
            attemptHistory.removeFirst(attemptHistory.count - Self.maximumAttemptHistory)
        }
    }

    /// Whether the job was stopped because one of its files changed since it was queued (or
    /// while it was read). Such a job is never sent until the user retries it.
    public var isFileChanged: Bool {
        lastError?.isFileChanged ?? false
    }
}
