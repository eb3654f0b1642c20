import Multipart
import UploadModel

/// Something the runtime must do for the app model: I/O and engine calls. Results come back
/// as ``AppMessage``s.
public enum AppCommand: Hashable, Sendable {
    /// Read a directory; answer with ``AppMessage/directoryLoaded(_:)``.
    case loadDirectory(String, focusName: String?)
    /// Collect the regular files under a directory (hidden ones only when `includesHidden`),
    /// each named relative to the directory's parent; answer with ``AppMessage/filesCollected(_:)``.
    case collectFiles(String, includesHidden: Bool)
    /// Queue jobs in the engine.
    case enqueue([UploadJobSpec])
    /// Read one job whole, with the response and attempt history the queue pane does not keep
    /// for a succeeded job (the engine's queue or, once it dropped them, the journal); answer
    /// with ``AppMessage/jobDetailsLoaded(_:)``, or nothing if the job is gone.
    case loadJobDetails(UploadJobID)
    /// Retry one failed or cancelled job.
    case retry(UploadJobID)
    /// Retry failed or cancelled jobs with the form's request as it is now (``FormState/request``:
    /// URL, method, headers, fields, connection) instead of the one they were queued with.
    case retryWithRequest([UploadJobID], UploadJobSpec)
    /// Send the jobs an endpoint held when it refused the credentials, with `header` in place of
    /// the headers of its name (``UploadManager/resumeEndpoint(_:replacingHeader:)``).
    case resumeEndpoint(UploadEndpoint, HeaderField)
    /// Retry every failed and cancelled job (not those that may have arrived).
    case retryFailedAndCancelled
    /// Cancel one job.
    case cancel(UploadJobID)
    /// Cancel every unfinished job.
    case cancelAll
    /// Pause or resume the engine (the user's pause, or the hold while quitting).
    case setPaused(Bool)
    /// Start the jobs an earlier run left, held since the start (``UploadJob/isHeld``).
    case releaseHeld
    /// Remember whether the user paused the queue, for the next start.
    case rememberPause(Bool)
    /// Change how many uploads run at once.
    case setConcurrency(Int)
    /// Remove a job from the queue (and the journal).
    case remove(UploadJobID)
    /// Remove every succeeded job.
    case clearSucceeded
    /// Save the form's settings in the journal.
    case saveForm(FormSettings)
    /// Read `profiles.toml`; answer with ``AppMessage/profilesLoaded(_:file:)``.
    case loadProfiles
    /// Add the profile to `profiles.toml` (or replace the one of its name), secrets left out;
    /// answer with ``AppMessage/profileSaved(_:file:variables:)``.
    case saveProfile(EndpointProfile)
    /// Build the request a job would send (its files checked); answer with
    /// ``AppMessage/requestPreviewed(title:lines:)``, secrets masked.
    case previewRequest(UploadJobSpec, title: String)
    /// Make the curl command that sends what a job sends; answer with ``AppMessage/curlCommandMade(_:)``.
    case makeCurlCommand(UploadJobSpec, showsSecrets: Bool)
    /// Put text on the terminal's clipboard (OSC 52); the runtime writes it on the terminal's thread.
    case copyToClipboard(String)
    /// Stop the engine (unfinished jobs stay in the journal), restore the terminal and exit.
    case quit
    /// Give the terminal back to the shell and stop the process (Ctrl-Z); the runtime carries it
    /// out on the terminal's thread, and the uploads go on once the process is continued.
    case suspend
}
