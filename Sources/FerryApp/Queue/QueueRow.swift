import UploadModel

/// One job as the queue pane keeps it: small, since the queue may hold 100,000 of them.
///
/// A job waiting for its first attempt, and a job that succeeded, are kept as their ID, spec
/// (whose storage the engine's copy shares), state and attempt count: 40 bytes. Any other job —
/// in flight, waiting for an automatic retry, failed, cancelled, queued again after attempts — is
/// kept whole, boxed. A succeeded job's response, attempt history, automatic retries and request
/// size are not kept: the rows and the totals do not show them, and the details view asks for
/// them (``AppCommand/loadJobDetails(_:)``); only the link its JSON answer gave (``ResponseLink``),
/// boxed, which the row shows.
public struct QueueRow: Hashable, Sendable, Identifiable {
    // In this order the fields take 40 bytes with no padding but the state's 3.
    /// The job's ID.
    public let id: UploadJobID
    private let spec: UploadJobSpec
    private let attempts: Int32
    /// Where the job is in its life.
    public let state: UploadJobState
    private let whole: Whole

    /// The job as the engine described it, when the row keeps it; or a succeeded job's link.
    private enum Whole: Hashable, Sendable {
        case none
        indirect case job(UploadJob)
        indirect case link(String)
    }

    /// The row of a job as an event describes it.
    ///
    /// - Parameter job: The job.
    public init(_ job: UploadJob) {
        id = job.id
        state = job.state
        spec = job.spec
        attempts = Int32(clamping: job.attempts)
        let slim = UploadJob(id: job.id, spec: job.spec, state: job.state, attempts: Int(attempts))
        if job.state == .succeeded {
            whole = job.response.flatMap { ResponseLink.find(in: $0) }.map(Whole.link) ?? .none
        } else {
            whole = job == slim ? .none : .job(job)
        }
    }

    /// The link a succeeded job's JSON answer gave, if it gave one.
    public var link: String? {
        if case .link(let link) = whole { return link }
        return nil
    }

    /// The job as the row knows it: the whole job, except that a succeeded one has no response,
    /// attempt history, automatic retries or request size.
    public var job: UploadJob {
        switch whole {
        case .job(let job): job
        case .none, .link: UploadJob(id: id, spec: spec, state: state, attempts: Int(attempts))
        }
    }

    /// Whether the job is held until the user starts it (``UploadJob/isHeld``).
    public var isHeld: Bool {
        if case .job(let job) = whole { return job.isHeld }
        return false
    }

    /// Whether ``job`` lacks what the details view shows (the job succeeded), so the details
    /// must be asked for.
    public var lacksDetails: Bool {
        state == .succeeded
    }
}
