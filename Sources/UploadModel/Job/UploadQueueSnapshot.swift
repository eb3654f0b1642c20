/// A copy of the whole queue at one moment.
public struct UploadQueueSnapshot: Sendable, Hashable {
    /// Every job, in ID (queueing) order.
    public var jobs: [UploadJob]
    /// Totals.
    public var summary: UploadSummary
    /// Whether the queue is paused (starts nothing new).
    public var isPaused: Bool
    /// The current concurrency limit.
    public var concurrencyLimit: Int

    /// Creates a snapshot.
    public init(jobs: [UploadJob], summary: UploadSummary, isPaused: Bool, concurrencyLimit: Int) {
        self.jobs = jobs
        self.summary = summary
        self.isPaused = isPaused
        self.concurrencyLimit = concurrencyLimit
    }
}
