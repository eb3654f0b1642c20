import UploadModel

/// What a tus transfer reports besides progress: where its upload stands.
extension UploadQueueStateMachine {
    /// A tus transfer created its upload, had an offset confirmed, or noted a resumption: the
    /// job keeps the checkpoint, and its row is written (so a killed run's successor asks that
    /// upload for its offset instead of sending the file again).
    ///
    /// When the server has just said (`HEAD`) that it holds bytes already, they are where this
    /// attempt starts: progress jumps to them and the rate starts from them, so speed and ETA
    /// count only what this attempt sends.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - checkpoint: Where the upload stands.
    ///   - now: The current instant.
    /// - Returns: The row's update; nothing for an attempt that is not the job's current one.
    public mutating func tusCheckpointed(_ id: UploadJobID, attempt: Int, checkpoint: TusCheckpoint,
                                         now: SchedulerInstant) -> [Action] {
        guard var (record, flight) = current(id, attempt) else { return [] }
        if case let .resumed(offset, _)? = checkpoint.notes.last, offset == checkpoint.offset,
           checkpoint.notes.count != record.job.tus?.notes.count {
            flight.rate.reset()
            flight.rate.record(offset, at: now)
            record.job.progress.bytesSent = offset
            record.phase = .uploading(flight)
        }
        record.job.tus = checkpoint
        jobs[id] = record
        return [.persist(.update(record.job, includingSpec: false))]
    }
}
