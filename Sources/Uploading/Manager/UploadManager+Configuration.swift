extension UploadManager {
    /// The manager's settings.
    public struct Configuration: Sendable, Hashable {
        /// Jobs in flight at once; default 4, changeable live with `setConcurrencyLimit(_:)`.
        public var concurrencyLimit: Int
        /// Automatic retries (`--retry N` sets `maximumRetries`).
        public var retryPolicy: RetryPolicy
        /// How long connecting may take; default 10 s.
        public var connectTimeout: Duration
        /// How long no bytes may move (`--timeout`); default 30 s.
        public var idleTimeout: Duration
        /// Minimum gap between progress events of one job; default 100 ms (10 per second).
        public var progressInterval: Duration
        /// The send rate's sliding window; default 5 s.
        public var rateWindow: Duration
        /// Whether a succeeded job keeps its response and attempt history for `job(_:)` and
        /// snapshots; default true. `ferry send`, which only prints events, turns it off, so
        /// 100,000 finished jobs cost little more than queued ones. The `succeeded` event and
        /// the journal carry them either way.
        public var keepsSucceededJobDetails: Bool

        /// Creates a configuration.
        public init(
            concurrencyLimit: Int = 4,
            retryPolicy: RetryPolicy = RetryPolicy(),
            connectTimeout: Duration = .seconds(10),
            idleTimeout: Duration = .seconds(30),
            progressInterval: Duration = .milliseconds(100),
            rateWindow: Duration = .seconds(5),
            keepsSucceededJobDetails: Bool = true
        ) {
            self.concurrencyLimit = max(1, concurrencyLimit)
            self.retryPolicy = retryPolicy
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.progressInterval = progressInterval
            self.rateWindow = rateWindow
            self.keepsSucceededJobDetails = keepsSucceededJobDetails
        }

        var stateMachineConfiguration: UploadQueueStateMachine.Configuration {
            UploadQueueStateMachine.Configuration(
                concurrencyLimit: concurrencyLimit,
                retryPolicy: retryPolicy,
                progressInterval: progressInterval,
                rateWindow: rateWindow,
                keepsSucceededJobDetails: keepsSucceededJobDetails
            )
        }
    }
}
