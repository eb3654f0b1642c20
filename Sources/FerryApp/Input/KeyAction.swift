/// What a key binding does.
public enum KeyAction: Hashable, Sendable {
    /// Focus the next pane.
    case nextPane
    /// Focus the previous pane.
    case previousPane
    /// Focus a pane.
    case focus(Pane)
    /// Show the help screen.
    case showHelp
    /// Quit (asks first while uploads run).
    case quit
    /// Quit at once.
    case forceQuit
    /// Stop the program and go back to the shell (`fg` comes back).
    case suspend
    /// Queue the selection with the form's settings.
    case queueSelection
    /// Move the cursor in the focused list (or scroll the help screen or a job's details).
    case move(ListMovement)
    /// Open the directory under the cursor.
    case open
    /// Go to the parent directory.
    case parent
    /// Go to the home directory.
    case home
    /// Read the folder shown again.
    case refresh
    /// Start typing a filter.
    case filter
    /// Show or hide dot files.
    case toggleHidden
    /// Cycle the sort order.
    case cycleSort
    /// Select the file (or folder) under the cursor and move down.
    case toggleSelection
    /// Select every file shown.
    case selectAll
    /// Edit the form row under the cursor.
    case edit
    /// Add a row to the parameter or header list.
    case addRow
    /// Delete the parameter or header row under the cursor.
    case deleteRow
    /// Reveal or mask secret header values.
    case reveal
    /// Show the request the form (or the job under the cursor) sends, secrets masked.
    case viewRequest
    /// Copy an equivalent curl command to the clipboard (OSC 52) and show it.
    case copyCurl
    /// Copy the link the job's JSON answer gave to the clipboard (OSC 52).
    case copyLink
    /// Open the profile picker.
    case pickProfile
    /// Save the form as a profile (asks a name).
    case saveAsProfile
    /// Open or close the details of the job under the cursor.
    case details
    /// Retry the job under the cursor.
    case retry
    /// Retry every failed and cancelled job (not those that may have arrived).
    case retryFailedAndCancelled
    /// Cancel the job under the cursor.
    case cancel
    /// Cancel every unfinished job.
    case cancelAll
    /// Pause or resume the queue.
    case togglePause
    /// Remove the job under the cursor.
    case remove
    /// Remove every succeeded job.
    case clearSucceeded
    /// Remove every failed job.
    case removeFailed
    /// Clear the filter of the focused pane (Files or Queue).
    case clearFilter
    /// What a key does in a dialog, a text field or another mode (``ModalKeys``).
    case modal(ModalAction)
    /// Move the cursor to the next failed job (after the cursor, wrapping around).
    case nextFailure
    /// One more upload at once.
    case moreConcurrency
    /// One fewer upload at once.
    case lessConcurrency
}
