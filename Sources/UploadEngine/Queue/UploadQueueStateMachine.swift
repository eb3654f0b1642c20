import FoundationEssentials
import UploadModel

/// The upload queue's logic: the job table, the concurrency limit, pausing, retries, progress
/// throttling and each job's attempt history, with no I/O and no clock of its own.
///
/// Events come in as `mutating func`s (the caller passes the current time where it matters);
/// each returns the actions the caller must carry out, in order: start or abort a transfer, set
/// or cancel a timer, persist a row, emit an event. `UploadManager` drives it on its root queue;
/// tests drive it directly. The events are grouped by where they come from:
/// `UploadQueueStateMachine+Enqueue.swift` (new and restored jobs), `+UserControls.swift`,
/// `+TransportEvents.swift` (the transport and the clock); `+Phases.swift` holds the moves
/// between a job's phases (``JobPhase``) that they share.
///
/// Transport events carry the attempt number they belong to; events of an attempt that is no
/// longer current (the job was cancelled, removed or stopped meanwhile) are ignored.
public struct UploadQueueStateMachine: Sendable {
    // The stored properties are internal only for the extensions in UploadQueueStateMachine+*.swift.

    /// Limits, retry policy, throttling.
    var configuration: UploadQueueConfiguration
    /// Every job with its phase.
    var jobs = JobTable<JobRecord>()
    /// The waiting jobs in the order they start.
    var readyQueue = ReadyQueue()
    /// How many jobs are in each state.
    var counts: [UploadJobState: Int] = [:]
    /// Whether new jobs are held back.
    var paused = false
    /// The endpoints paused now (a refused credential, a `Retry-After`), with the jobs set aside.
    var pausedEndpoints: [UploadEndpoint: PausedEndpoint] = [:]
    /// The endpoints that have accepted an upload: a 403 from one of them means the credentials
    /// that worked have stopped working.
    var endpointsWithSuccess: Set<UploadEndpoint> = []
    /// The endpoint of each URL seen, so a batch's shared URL is parsed once.
    var endpointsByURL: [String: UploadEndpoint] = [:]
    /// The prefix of the jobs' `Idempotency-Key`s (``IdempotencyKey``); nil when requests carry none.
    var idempotencyKeyPrefix: String?
    /// What each job URL's server is known to do with `Idempotency-Key`: `true` once it named a
    /// key back, `false` when it answered a keyed request with 2xx without doing so.
    var keyVerdicts: [String: Bool] = [:]
    /// Jobs backing off after an attempt that lost its answer, until their server's verdict on
    /// keys is known, with that attempt's number (`+IdempotencyKeys.swift`).
    var awaitingKeyVerdict: [UploadJobID: Int] = [:]
    /// Whether the queue was idle after the last event, so `idle` is emitted once per idle spell.
    var wasIdle = true
    /// The source of retry jitter.
    var random: any RandomNumberGenerator & Sendable

    /// Creates an empty, running queue.
    ///
    /// - Parameters:
    ///   - configuration: Limits, retry policy, throttling (the timeouts are the manager's).
    ///   - random: The source of retry jitter; inject a fixed one in tests.
    public init(
        configuration: UploadQueueConfiguration = UploadQueueConfiguration(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.random = random
    }

    // MARK: - Queries

    /// Whether new jobs are held back.
    public var isPaused: Bool { paused }

    /// The current concurrency limit.
    public var concurrencyLimit: Int { configuration.concurrencyLimit }

    /// The current retry policy.
    public var retryPolicy: RetryPolicy { configuration.retryPolicy }

    /// Whether nothing is queued (waiting or backing off) or in flight.
    public var isIdle: Bool { count(.queued) == 0 && count(.uploading) == 0 }

    /// A job by ID.
    ///
    /// - Parameter id: The job's ID.
    /// - Returns: A copy of the job, or nil if there is no such job.
    public func job(_ id: UploadJobID) -> UploadJob? {
        jobs[id]?.job
    }

    /// The IDs of the jobs in a state, in ID order.
    ///
    /// - Parameter state: The state.
    /// - Returns: The IDs.
    public func jobIDs(in state: UploadJobState) -> [UploadJobID] {
        jobs.values.lazy.filter { $0.phase.state == state }.map(\.id).sorted()
    }

    /// The jobs ``retryFailedAndCancelled(refreshedFiles:)`` retries: failed and cancelled
    /// ones that cannot have arrived or whose server can say what it holds
    /// (``UploadJob/serverCanSayWhatArrived``), in ID order.
    ///
    /// - Returns: Their IDs.
    public func retriableTogether() -> [UploadJobID] {
        jobs.values.lazy
            .filter { record in
                switch record.phase {
                case .finished(.failed), .finished(.cancelled): !record.job.mayHaveArrived || record.job.serverCanSayWhatArrived
                default: false
                }
            }
            .map(\.id).sorted()
    }

    /// How many jobs are in a state.
    ///
    /// - Parameter state: The state.
    /// - Returns: The count.
    public func count(_ state: UploadJobState) -> Int {
        counts[state, default: 0]
    }

    /// Totals over the queue.
    public var summary: UploadSummary {
        var summary = UploadSummary()
        for record in jobs.values { summary.account(record.job, sign: 1) }
        return summary
    }

    /// The endpoints paused now, with why.
    public var endpointPauses: [UploadEndpoint: EndpointPause] {
        pausedEndpoints.mapValues(\.pause)
    }

    /// A copy of the whole queue.
    public var snapshot: UploadQueueSnapshot {
        UploadQueueSnapshot(
            jobs: jobs.values.map(\.job).sorted { $0.id < $1.id },
            summary: summary,
            isPaused: paused,
            concurrencyLimit: configuration.concurrencyLimit
        )
    }
}
