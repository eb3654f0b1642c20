import UploadModel

/// A change to the journal's rows that the queue asks for.
///
/// New jobs are not a change: their rows are inserted when they are queued, which is also what
/// assigns their IDs (`UploadJournal.insert(_:)`).
public enum JournalChange: Sendable, Hashable {
    /// Write the job's state, attempts and their history, last error and response to its row (one `UPDATE`);
    /// `includingSpec` also rewrites its spec (after a retry re-captured its files).
    case update(UploadJob, includingSpec: Bool)
    /// Delete the jobs' rows.
    case delete([UploadJobID])
    /// Remember that the server at the URL honours `Idempotency-Key` (``IdempotencyKey``).
    case urlHonoursIdempotencyKeys(String)
}
