import UploadModel

/// A fact the journal records ahead of its batched rows (`JournalMarkLog`), at the moment it
/// becomes true, because the rows would learn it up to a batch too late: a kill in between must
/// not make a restore send a body the server may already have.
///
/// Marks never become false, so a stale one is harmless: a restore reads one against the job's
/// row (``UploadJournal/takeOverRestorableJobs()``).
public enum JournalMark: Sendable, Hashable {
    /// The body's last byte of the job's attempt was about to be handed to the server: from now
    /// on the server may store it.
    case bodyMayComplete(UploadJobID, attempt: Int)
    /// The server answered the job with a 2xx.
    case succeeded(UploadJobID)
}
