import UploadModel

/// What the engine needs of a journal: inserting jobs (which assigns their IDs), applying
/// batches of row changes, the write-ahead marks, the health checks of a journal that failed,
/// taking over what ended runs left, and the Idempotency-Key facts it keeps.
///
/// ``UploadJournal`` is the SQLite store. The manager and its `JournalWriter` see only this
/// protocol, so a test can put a double in front of a real journal (failing a write at the step
/// it picks) without a hook in the production code.
public protocol JournalStore: AnyObject, Sendable {
    /// The kind of store this journal's write-ahead marks go to.
    associatedtype Marks: JournalMarkStore

    /// The database file's path (named by errors).
    var path: String { get }
    /// This process's write-ahead marks.
    var marks: Marks { get }

    /// Inserts new jobs in one transaction; the journal assigns their IDs (increasing, never
    /// reused).
    ///
    /// - Parameter specs: The jobs' specs.
    /// - Returns: The IDs, in order.
    /// - Throws: `UploadError.journalFailed` when nothing was inserted.
    func insertIDs(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJobID]

    /// Applies a batch of row changes in one transaction.
    ///
    /// - Parameter changes: The changes, in order.
    /// - Throws: `UploadError.journalFailed` when none was applied.
    func apply(_ changes: [JournalChange]) throws(UploadError)

    /// Tries whether a journal that failed can be written again (marks and rows).
    ///
    /// - Throws: `UploadError.journalFailed` while it cannot be.
    func probe() throws(UploadError)

    /// Checks that the database file is still the one that was opened.
    ///
    /// - Throws: `UploadError.journalFailed(reason: .removed)` when it was removed or replaced.
    func checkStillInPlace() throws(UploadError)

    /// Takes over the rows ended runs left (their marks applied) and returns the jobs to restore.
    ///
    /// - Parameter keepingCancelled: Whether cancelled jobs come back too (the interface's).
    /// - Returns: The jobs, by ID.
    /// - Throws: `UploadError.journalFailed` (`inUse` while another process has it open).
    func takeOverRestorableJobs(keepingCancelled: Bool) throws(UploadError) -> [UploadJob]

    /// The prefix of every job's Idempotency-Key, made once and kept.
    ///
    /// - Returns: The prefix.
    /// - Throws: `UploadError.journalFailed` when it cannot be read or kept.
    func idempotencyKeyPrefix() throws(UploadError) -> String

    /// The URLs whose servers were seen honouring Idempotency-Keys.
    ///
    /// - Returns: The URLs.
    /// - Throws: `UploadError.journalFailed` when they cannot be read.
    func urlsHonouringIdempotencyKeys() throws(UploadError) -> Set<String>
}
