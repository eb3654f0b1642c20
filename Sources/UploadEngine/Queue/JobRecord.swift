import UploadModel

/// What the machine keeps about a job: the job as consumers see it and its phase. Small, since
/// a queue may hold 100,000 of them.
struct JobRecord: Sendable, Identifiable {
    /// The job. Its `state` and `retryAt` are the projection of ``phase``: the machine changes
    /// them only by changing the phase.
    var job: UploadJob
    /// Where the job is; setting it updates the job's projection.
    var phase: JobPhase {
        didSet { job.project(phase) }
    }

    var id: UploadJobID { job.id }

    /// A record in a phase.
    ///
    /// - Parameters:
    ///   - job: The job; its state and retry instant are replaced by the phase's.
    ///   - phase: The phase.
    init(job: UploadJob, phase: JobPhase) {
        self.job = job
        self.phase = phase
        self.job.project(phase)
    }
}
