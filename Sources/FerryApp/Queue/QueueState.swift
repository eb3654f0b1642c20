import TerminalUI
import Uploading

/// The queue pane's state: the jobs in the order they were queued, as the upload events
/// describe them, the cursor, and the job whose details are open.
public struct QueueState: Hashable, Sendable {
    /// The jobs by ID (a compact table: the queue may hold 100,000 of them).
    public private(set) var jobs = JobTable<UploadJob>()
    /// The job IDs in queue order.
    public private(set) var order: [UploadJobID] = []
    /// The cursor over ``order``.
    public var scroll = ListScroll()
    /// The job whose details view is open, if any.
    public var detailsJobID: UploadJobID?
    /// Wrapped lines of the details view scrolled past.
    public var detailsScroll = 0
    /// Whether the engine's queue is paused, as its last `pausedChanged` event (or the restore)
    /// said.
    public var isPaused = false
    /// The last error the journal reported, if any.
    public var journalError: String?
    /// When the jobs in flight last moved a byte.
    public private(set) var progressWatch = ProgressWatch()

    /// Creates an empty queue.
    public init() {}

    /// The job under the cursor, if any.
    public var current: UploadJob? {
        scroll.selection.flatMap { jobs[order[$0]] }
    }

    /// Counts of jobs by state, and bytes; kept up to date as jobs change.
    public private(set) var summary = UploadSummary()

    /// Whether any job is queued or uploading.
    public var hasActiveJobs: Bool { summary.queued + summary.uploading > 0 }

    /// Records a job as the latest event describes it (appending new jobs).
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - now: The clock's latest reading, to time its progress.
    public mutating func upsert(_ job: UploadJob, at now: SchedulerInstant? = nil) {
        progressWatch.record(job, at: now)
        if let old = jobs[job.id] {
            summary.account(old, sign: -1)
        } else {
            order.append(job.id)
            scroll.setCount(order.count)
        }
        jobs[job.id] = job
        summary.account(job, sign: 1)
    }

    /// Makes room for `count` more jobs at once (a long batch was just queued), so the table
    /// does not grow step by step while their events arrive.
    ///
    /// - Parameter count: How many jobs are about to arrive.
    public mutating func reserveCapacity(forAdding count: Int) {
        jobs.reserveCapacity(adding: count)
        let needed = order.count + count
        if needed > order.capacity { order.reserveCapacity(max(needed, order.capacity * 2)) }
    }

    /// Forgets a job.
    ///
    /// - Parameter id: The job.
    public mutating func remove(_ id: UploadJobID) {
        guard let old = jobs.removeValue(forKey: id) else { return }
        progressWatch.forget(id)
        summary.account(old, sign: -1)
        order.removeAll { $0 == id }
        scroll.setCount(order.count)
        if detailsJobID == id { detailsJobID = nil }
    }
}
