import TerminalUI
import UploadModel

/// Something that happened, fed into ``AppState/update(_:)``: past-tense facts from the
/// terminal, the file system and the upload engine.
public enum AppMessage: Hashable, Sendable {
    /// The scheduler's monotonic clock read this instant (the runtime sends it about ten
    /// times a second while uploads run): retry countdowns and stalled transfers count from it.
    case clockTicked(SchedulerInstant)
    /// A key was pressed, or the terminal changed size (``KeyEvent/resize(_:)``).
    case keyPressed(KeyEvent)
    /// A directory was read (after ``AppCommand/loadDirectory(_:focusName:)``).
    case directoryLoaded(DirectoryListing)
    /// A folder the runtime watches changed on disk (an entry was added, removed, renamed or
    /// written).
    case directoryChanged(String)
    /// The files under a directory were collected (after ``AppCommand/collectFiles(_:includesHidden:)``).
    case filesCollected(FileCollection)
    /// The upload engine reported an event.
    case uploadEventReceived(UploadEvent)
    /// The upload engine reported these jobs removed, one `removed` event after the other (a
    /// clear of many jobs): taken at once, so clearing 100,000 jobs is not 100,000 passes over
    /// the queue's order.
    case jobsRemoved([UploadJobID])
    /// A job's details were read (after ``AppCommand/loadJobDetails(_:)``): the whole job, with
    /// a succeeded job's response and attempt history.
    case jobDetailsLoaded(UploadJob)
    /// A job's details could not be read (after ``AppCommand/loadJobDetails(_:)``): why, in words.
    case jobDetailsUnavailable(UploadJobID, reason: String)
    /// The journal's unfinished, failed and cancelled jobs were restored into the engine:
    /// unfinished ones held (``UploadJob/isHeld``) until the user starts them, while new uploads
    /// start; the engine is paused when `paused` (the user paused it last time); `othersWaiting`
    /// jobs of `ferry send` wait for its `--resume`.
    case jobsRestored([UploadJob], paused: Bool, othersWaiting: Int)
    /// The form saved by an earlier run was read from the journal.
    case formRestored(FormSettings)
    /// `profiles.toml` was read (after ``AppCommand/loadProfiles``): its profiles, each expanded
    /// or with why it cannot be used now.
    case profilesLoaded([ProfileChoice], file: String)
    /// A profile was saved (after ``AppCommand/saveProfile(_:)``); `variables` are the
    /// environment variables it names for the secrets it left out.
    case profileSaved(String, file: String, variables: [String])
    /// A request was built (after ``AppCommand/previewRequest(_:title:)``): its lines.
    case requestPreviewed(title: String, lines: [String])
    /// A curl command was made (after ``AppCommand/makeCurlCommand(_:showsSecrets:)``): the line.
    case curlCommandMade(String)
    /// A command could not be carried out.
    case commandFailed(String)
    /// The process was asked to end (SIGTERM, SIGHUP, SIGINT from outside): quit at once,
    /// without asking, saving the form; the runtime keeps the queue for the next start.
    case terminationRequested
}
