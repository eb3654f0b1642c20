/// What the keys answer right now, in the one order every part of the interface asks it in:
/// the model's key handling, the help bar and the dialogs all follow ``AppState/inputMode``, so
/// a dialog open over the filter editor shows the dialog's keys, which are the ones that act.
public enum InputMode: Hashable, Sendable {
    /// A question waits for its answer; nothing else takes keys.
    case dialog(Confirmation)
    /// The quit waits for the uploads in flight: Esc stays, q stops them; other keys work as in
    /// the pane.
    case quitWait
    /// The `?` help screen is open.
    case help
    /// The request or curl command is shown (`v`, `y`).
    case requestView
    /// The profile picker is open.
    case profilePicker
    /// A name for the form as a profile is being typed.
    case profileName
    /// The focused pane's filter (Files or Queue) is being typed.
    case filterEditor
    /// A form row is being edited.
    case formEditor
    /// The Form's Method choice is open.
    case methodChoice
    /// A job's details are open in the Queue pane: Esc closes them; other keys work as in the pane.
    case details
    /// The focused pane's own keys (``KeyBindings``).
    case pane(Pane)

    /// Whether keys the mode does not declare go on to the focused pane's bindings.
    public var fallsThroughToPane: Bool {
        switch self {
        case .quitWait, .details, .pane: true
        case .dialog, .help, .requestView, .profilePicker, .profileName, .filterEditor, .formEditor, .methodChoice: false
        }
    }

    /// Whether keys the mode does not declare go to a text field's editor.
    public var editsText: Bool {
        self == .filterEditor || self == .formEditor || self == .profileName
    }
}
