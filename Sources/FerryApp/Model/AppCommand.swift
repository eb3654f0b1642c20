import Uploading

/// Something the runtime must do for the app model: I/O and engine calls. Results come back
/// as ``AppMessage``s.
public enum AppCommand: Hashable, Sendable {
    /// Read a directory; answer with ``AppMessage/directoryLoaded(_:)``.
    case loadDirectory(String, focusName: String?)
    /// Collect the regular files under a directory; answer with ``AppMessage/filesCollected(_:)``.
    case collectFiles(String)
    /// Queue jobs in the engine.
    case enqueue([UploadJobSpec])
    /// Retry one failed or cancelled job.
    case retry(UploadJobID)
    /// Retry every failed job.
    case retryAllFailed
    /// Cancel one job.
    case cancel(UploadJobID)
    /// Cancel every unfinished job.
    case cancelAll
    /// Pause or resume the queue.
    case setPaused(Bool)
    /// Change how many uploads run at once.
    case setConcurrency(Int)
    /// Remove a job from the queue (and the journal).
    case remove(UploadJobID)
    /// Remove every finished job.
    case clearFinished
    /// Save the form's settings in the journal.
    case saveForm(FormSettings)
    /// Stop the engine (unfinished jobs stay in the journal), restore the terminal and exit.
    case quit
}
