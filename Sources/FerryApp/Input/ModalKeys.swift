import TerminalUI

/// The keys of every mode other than a pane's (``InputMode``), declared once: the model handles
/// keys by them, the help bar shows them, a dialog's buttons are written from them and the help
/// screen lists the text fields' keys.
public enum ModalKeys {
    /// The keys a mode declares, in the order the help bar and a dialog's buttons show them
    /// (those with ``KeyBinding/showsInHelpBar``).
    ///
    /// - Parameter mode: The mode.
    /// - Returns: The bindings; empty for a pane's mode (its keys are ``KeyBindings``).
    public static func bindings(for mode: InputMode) -> [KeyBinding] {
        switch mode {
        case .dialog(let confirmation): dialog(confirmation)
        case .quitWait: quitWait
        case .help: help
        case .filterEditor: filterEditor
        case .formEditor: formEditor
        case .methodChoice: methodChoice
        case .details: details
        case .requestView: requestView
        case .profilePicker: profilePicker
        case .profileName: profileName
        case .pane: []
        }
    }

    /// The binding a key triggers in a mode, if the mode declares one.
    ///
    /// - Parameters:
    ///   - event: The key.
    ///   - mode: The mode.
    /// - Returns: The binding.
    public static func binding(for event: KeyEvent, in mode: InputMode) -> KeyBinding? {
        bindings(for: mode).first { $0.keys.contains(event) }
    }

    private static func key(_ key: Key) -> KeyEvent { .key(key) }
    private static func char(_ character: Character) -> KeyEvent { .key(.character(character)) }

    private static func modal(_ keys: [KeyEvent], _ label: String, _ description: String, _ action: ModalAction,
                              shown: Bool = true) -> KeyBinding {
        KeyBinding(keys, label, description, pane: nil, action: .modal(action), showsInHelpBar: shown)
    }

    private static func dialog(_ confirmation: Confirmation) -> [KeyBinding] {
        switch confirmation {
        case .quit(let inFlight, _) where inFlight > 0:
            [modal([key(.enter), char("y"), char("Y"), char("w")], "Enter", "finish, then quit", .quitAfterInFlight),
             modal([char("s"), char("S")], "s", "stop now", .quitStoppingInFlight),
             modal([key(.escape), char("n"), char("N"), char("q")], "Esc", "stay", .stayAfterQuitQuestion)]
        case .quit:
            [modal([char("y"), char("Y"), key(.enter)], "y", "quit", .quitAfterInFlight),
             modal([char("n"), char("N"), key(.escape), char("q")], "n", "stay", .stayAfterQuitQuestion)]
        case .resend:
            [modal([char("y"), char("Y")], "y", "send again", .resendAnswered(true)),
             modal([char("n"), char("N"), key(.escape), key(.enter)], "n", "leave it", .resendAnswered(false))]
        case .earlierFailures:
            [modal([key(.enter), char("y"), char("r"), key(.escape)], "Enter", "keep", .keepEarlierFailures),
             modal([char("c"), char("C")], "c", "clear", .clearEarlierFailures)]
        case .retryWithForm:
            [modal([key(.enter), char("f")], "Enter", "current form", .retryWithCurrentForm),
             modal([char("o")], "o", "as queued", .retryAsQueued),
             modal([key(.escape), char("n")], "Esc", "leave", .leaveRetry)]
        case .selectFolder:
            [modal([char("y"), char("Y"), key(.enter)], "y", "select", .selectFolderAnswered(true)),
             modal([char("n"), char("N"), key(.escape)], "n", "cancel", .selectFolderAnswered(false))]
        }
    }

    private static let quitWait: [KeyBinding] = [
        modal([key(.escape)], "Esc", "stay", .stopWaitingToQuit),
        modal([char("q")], "q", "stop them now", .quitWithoutWaiting),
    ]

    private static let help: [KeyBinding] = [
        modal([key(.escape), char("?"), char("q"), key(.enter)], "Esc", "close", .closeHelp),
        modal([char("k"), key(.up)], "k/↑", "up", .scrollHelp(.up)),
        modal([char("j"), key(.down)], "j/↓", "down", .scrollHelp(.down)),
        modal([key(.pageUp)], "PgUp", "page up", .scrollHelp(.pageUp), shown: false),
        modal([key(.pageDown)], "PgDn", "page down", .scrollHelp(.pageDown), shown: false),
        modal([char("g"), key(.home)], "g", "top", .scrollHelp(.top), shown: false),
        modal([char("G"), key(.end)], "G", "bottom", .scrollHelp(.bottom), shown: false),
    ]

    private static let filterEditor: [KeyBinding] = [
        modal([key(.enter), key(.down), key(.up)], "Enter", "keep filter", .keepFilter),
        modal([key(.escape)], "Esc", "clear", .clearFilter),
    ]

    /// The form editor's keys; the help screen lists them under "Text fields". Keys it does not
    /// declare go to the editor too (typing, ←/→, Home/End, Backspace, Alt-b/Alt-f).
    public static let formEditor: [KeyBinding] = [
        modal([key(.enter)], "Enter", "save", .saveEdit),
        modal([key(.escape)], "Esc", "cancel", .cancelEdit),
        modal([key(.ctrl("u"))], "Ctrl-U", "clear to start", .editText),
        modal([key(.ctrl("k"))], "Ctrl-K", "clear to end", .editText, shown: false),
        modal([key(.ctrl("w")), .alt(.backspace)], "Ctrl-W", "delete a word", .editText, shown: false),
    ]

    private static let methodChoice: [KeyBinding] = [
        modal([key(.left), key(.up), char("h"), char("k")], "←", "previous", .chooseMethod(-1), shown: false),
        modal([key(.right), key(.down), char("l"), char("j")], "←/→", "choose", .chooseMethod(1)),
        modal([key(.enter)], "Enter", "set", .setMethod),
        modal([key(.escape)], "Esc", "cancel", .cancelMethodChoice),
    ]

    private static let requestView: [KeyBinding] = [
        modal([key(.escape), char("q"), char("v"), key(.enter)], "Esc", "close", .closeRequestView),
        modal([char("k"), key(.up)], "k/↑", "up", .scrollRequestView(-1)),
        modal([char("j"), key(.down)], "j/↓", "down", .scrollRequestView(1)),
        modal([key(.pageUp)], "PgUp", "page up", .scrollRequestView(-10), shown: false),
        modal([key(.pageDown)], "PgDn", "page down", .scrollRequestView(10), shown: false),
    ]

    private static let profilePicker: [KeyBinding] = [
        modal([char("k"), key(.up)], "k/↑", "up", .chooseProfile(-1)),
        modal([char("j"), key(.down)], "j/↓", "down", .chooseProfile(1)),
        modal([key(.enter)], "Enter", "load into the form", .loadProfile),
        modal([key(.escape), char("q")], "Esc", "cancel", .closeProfilePicker),
    ]

    private static let profileName: [KeyBinding] = [
        modal([key(.enter)], "Enter", "save profile", .saveProfile),
        modal([key(.escape)], "Esc", "cancel", .cancelProfileName),
    ]

    private static let details: [KeyBinding] = [
        modal([key(.escape)], "Esc", "close details", .closeDetails, shown: false),
    ]
}
