import UploadModel

extension UploadJob {
    /// Takes the state, retry instant and hold of a phase: the queue's projection of its job.
    ///
    /// - Parameter phase: The phase the queue now has the job in.
    mutating func project(_ phase: JobPhase) {
        state = phase.state
        retryAt = phase.retryAt
        isHeld = phase.isHeld
    }
}
