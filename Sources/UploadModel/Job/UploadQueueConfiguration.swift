/// The upload queue's settings, one set for the state machine and the manager that drives it:
/// the machine's limits, retry policy and throttling, and each attempt's timeouts (which the
/// manager puts on every request).
public struct UploadQueueConfiguration: Sendable, Hashable {
    /// Jobs in flight at once (at least 1); default 4, changeable live with
    /// `UploadManager.setConcurrencyLimit(_:)`.
    public var concurrencyLimit: Int
    /// When failed attempts are retried automatically (`--retry N` sets `maximumRetries`).
    public var retryPolicy: RetryPolicy
    /// How long connecting may take; default 10 s.
    public var connectTimeout: Duration
    /// How long no bytes may move (`--timeout`); default 30 s.
    public var idleTimeout: Duration
    /// How often the manager reads its transfers: what each wrote (at most one `progressed`
    /// event per job per interval) and that one began; default 100 ms (10 per second).
    public var progressInterval: Duration
    /// How far back the send rate looks; default 5 s.
    public var rateWindow: Duration
    /// Whether a succeeded job keeps its response and attempt history in the queue (for
    /// `UploadManager.job(_:)` and snapshots); default true. `ferry send`, which only prints
    /// events, turns it off, so 100,000 finished jobs cost little more than queued ones, and so
    /// does the interface when it has a journal (its details view reads them from there). The
    /// `succeeded` event and the journal carry them either way.
    public var keepsSucceededJobDetails: Bool
    /// Whether an endpoint that refused the credentials holds its jobs until new ones are given
    /// (`UploadQueueStateMachine.resumeEndpoint(_:replacingHeader:)`, the interface) rather than
    /// failing them at once (`ferry send`, where no one can give them); default false.
    public var holdsForNewCredentials: Bool

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - concurrencyLimit: Jobs in flight at once; values below 1 count as 1.
    ///   - retryPolicy: The retry policy.
    ///   - connectTimeout: How long connecting may take.
    ///   - idleTimeout: How long no bytes may move.
    ///   - progressInterval: How often transfers are read for progress.
    ///   - rateWindow: The rate's sliding window.
    ///   - keepsSucceededJobDetails: Whether succeeded jobs keep their response and attempt history.
    ///   - holdsForNewCredentials: Whether refused credentials hold the endpoint's jobs for new ones.
    public init(
        concurrencyLimit: Int = 4,
        retryPolicy: RetryPolicy = RetryPolicy(),
        connectTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(30),
        progressInterval: Duration = .milliseconds(100),
        rateWindow: Duration = .seconds(5),
        keepsSucceededJobDetails: Bool = true,
        holdsForNewCredentials: Bool = false
    ) {
        self.concurrencyLimit = max(1, concurrencyLimit)
        self.retryPolicy = retryPolicy
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.progressInterval = progressInterval
        self.rateWindow = rateWindow
        self.keepsSucceededJobDetails = keepsSucceededJobDetails
        self.holdsForNewCredentials = holdsForNewCredentials
    }
}
