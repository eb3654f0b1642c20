/// What a resumable request's transfer (`--resumable`) reports besides progress: the upload's
/// URL the server named.
extension UploadQueueStateMachine {
    /// The server named the upload's URL (`104`): the job keeps the checkpoint, and its row is
    /// written, so a killed run's successor asks that URL for its offset instead of sending the
    /// whole body again.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - checkpoint: The upload's URL and the body's boundary.
    /// - Returns: The row's update; nothing for an attempt that is not the job's current one.
    public mutating func resumptionCheckpointed(_ id: UploadJobID, attempt: Int, checkpoint: ResumableCheckpoint) -> [Action] {
        guard var (record, _) = current(id, attempt) else { return [] }
        record.job.resumption = checkpoint
        jobs[id] = record
        return [.persist(.update(record.job, includingSpec: false))]
    }
}
