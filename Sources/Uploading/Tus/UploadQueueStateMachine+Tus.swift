/// What a tus transfer reports besides progress: where its upload stands.
extension UploadQueueStateMachine {
    /// A tus transfer created its upload, had an offset confirmed, or noted a resumption: the
    /// job keeps the checkpoint, and its row is written (so a killed run's successor asks that
    /// upload for its offset instead of sending the file again).
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - checkpoint: Where the upload stands.
    /// - Returns: The row's update; nothing for an attempt that is not the job's current one.
    public mutating func tusCheckpointed(_ id: UploadJobID, attempt: Int, checkpoint: TusCheckpoint) -> [Action] {
        guard var record = current(id, attempt)?.record else { return [] }
        record.job.tus = checkpoint
        jobs[id] = record
        return [.persist(.update(record.job, includingSpec: false))]
    }
}
