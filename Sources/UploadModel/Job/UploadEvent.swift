/// What happened in the queue: the one typed stream the interface and `ferry send` consume.
///
/// Every job event carries a copy of the job as it is after the change. Events of one job come
/// in order; `progressed` comes at most once per `progressInterval` per job (10 per second), and
/// `started` within one interval of the start — or just before the outcome of a transfer that
/// ended sooner.
public enum UploadEvent: Sendable, Hashable {
    /// A job entered the queue: newly queued, restored, retried by the user, put back by `stop`,
    /// or held while its endpoint waits for new credentials.
    case queued(UploadJob)
    /// A request for the job started; `job.attempts` numbers it, `job.progress.totalBytes` is set.
    case started(UploadJob)
    /// More of the job's body was sent.
    case progressed(UploadJob)
    /// An attempt failed with a retryable error; the job is queued again after `after`.
    case retrying(UploadJob, after: Duration)
    /// The server accepted the job (2xx); `job.response` holds the answer.
    case succeeded(UploadJob)
    /// The job failed and waits for the user.
    case failed(UploadJob, reason: UploadError)
    /// The job was cancelled; an in-flight request was aborted.
    case cancelled(UploadJob)
    /// The job was removed from the queue.
    case removed(UploadJobID)
    /// The queue was paused (true: nothing new starts, transfers in flight go on) or resumed
    /// (false), by the user or by `stop`.
    case pausedChanged(Bool)
    /// An endpoint's pause began or changed: no new request goes to it until it ends (its
    /// `wait` is over and, where credentials were refused, new ones are given); jobs for other
    /// endpoints go on.
    case endpointPaused(UploadEndpoint, EndpointPause)
    /// An endpoint's pause ended: its jobs start again.
    case endpointResumed(UploadEndpoint)
    /// Nothing is queued or in flight any more (or a restore left nothing to do).
    case idle(UploadSummary)
    /// Writing the journal failed; uploads go on but the queue may not survive a restart.
    case journalFailed(UploadError)

    /// The job the event is about, if any.
    public var job: UploadJob? {
        switch self {
        case let .queued(job), let .started(job), let .progressed(job), let .retrying(job, _),
             let .succeeded(job), let .failed(job, _), let .cancelled(job):
            return job
        case .removed, .pausedChanged, .endpointPaused, .endpointResumed, .idle, .journalFailed:
            return nil
        }
    }
}
