/// What a key does in a mode other than a pane's (``InputMode``): answers to the dialogs, and the
/// keys of the help screen, the text fields, the Method choice, the details and the quit's wait.
public enum ModalAction: Hashable, Sendable {
    /// Quit: with uploads in flight, once they finish (nothing new starts meanwhile); else now.
    case quitAfterInFlight
    /// Quit now, stopping the uploads in flight.
    case quitStoppingInFlight
    /// Stay after the quit question (the queue goes back to running if it ran).
    case stayAfterQuitQuestion
    /// Keep the failures of an earlier session in the queue to review.
    case keepEarlierFailures
    /// Remove the failures of an earlier session.
    case clearEarlierFailures
    /// Send again (`true`) a job that may have arrived, or leave it (`false`).
    case resendAnswered(Bool)
    /// Select every file of the large folder (`true`), or not.
    case selectFolderAnswered(Bool)
    /// Retry with the form as it is now.
    case retryWithCurrentForm
    /// Retry as the jobs were queued.
    case retryAsQueued
    /// Leave the jobs as they are.
    case leaveRetry
    /// Stop waiting for the uploads in flight to quit: stay.
    case stopWaitingToQuit
    /// Quit now instead of waiting for the uploads in flight.
    case quitWithoutWaiting
    /// Close the help screen.
    case closeHelp
    /// Scroll the help screen.
    case scrollHelp(ListMovement)
    /// Close the filter editor keeping the filter.
    case keepFilter
    /// Close the filter editor and clear the filter.
    case clearFilter
    /// The key goes to the text field being edited (one of its editing keys).
    case editText
    /// Save the form row being edited.
    case saveEdit
    /// Leave the form row unchanged.
    case cancelEdit
    /// Highlight the previous (-1) or next (1) method.
    case chooseMethod(Int)
    /// Set the highlighted method.
    case setMethod
    /// Close the Method choice without a change.
    case cancelMethodChoice
    /// Close the job's details.
    case closeDetails
    /// Close the request or curl command shown.
    case closeRequestView
    /// Scroll the request shown by this many lines.
    case scrollRequestView(Int)
    /// Highlight the previous (-1) or next (1) profile.
    case chooseProfile(Int)
    /// Load the highlighted profile into the form.
    case loadProfile
    /// Close the profile picker without a change.
    case closeProfilePicker
    /// Save the form as a profile of the name typed.
    case saveProfile
    /// Do not save the form as a profile.
    case cancelProfileName
}
