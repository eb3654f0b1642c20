import UploadModel

/// A question the interface is waiting for the user to answer.
public enum Confirmation: Hashable, Sendable {
    /// Quit while uploads run: `inFlight` requests are being sent, `waiting` jobs wait to start.
    /// With requests in flight the default is to let them finish first (`Enter`/`y`), or to
    /// stop them now (`s`; they go again on the next start, or wait as "may have arrived").
    case quit(inFlight: Int, waiting: Int)
    /// Send again a job that may have arrived (stopped after its body went out, before the
    /// server answered).
    case resend(UploadJobID, name: String)
    /// Jobs that failed in an earlier session, restored with the queue: keep them to review
    /// (`Enter`/`y`) or clear them (`c`).
    case earlierFailures([UploadJobID])
    /// Retry jobs queued with another request than the form's now (`changes` says what differs,
    /// in words): with the form as it is now (`Enter`/`f`, what the user fixed) or as they were
    /// queued (`o`: `asQueued` are the commands for that).
    case retryWithForm([UploadJobID], changes: [String], asQueued: [AppCommand])
    /// Select every file of a large folder.
    case selectFolder(FileCollection)
}
