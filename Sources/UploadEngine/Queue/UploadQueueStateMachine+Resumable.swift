import UploadModel

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

    /// A resumable request goes on from the server's `offset`: progress is there, and the rate
    /// starts from it, so speed and ETA count only what this attempt sends from now on.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - offset: The server's offset.
    ///   - now: The current instant.
    public mutating func resumableUploadResumed(_ id: UploadJobID, attempt: Int, at offset: Int64, now: SchedulerInstant) {
        guard var (record, flight) = current(id, attempt) else { return }
        flight.rate.reset()
        flight.rate.record(offset, at: now)
        record.job.progress.bytesSent = offset
        record.phase = .uploading(flight)
        jobs[id] = record
    }
}
