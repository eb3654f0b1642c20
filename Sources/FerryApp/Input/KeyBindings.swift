import TerminalUI
import UploadModel

/// The key-binding table of the interface.
public enum KeyBindings {
    /// Every binding: pane-specific ones first (they win over global ones for the same key).
    public static let all: [KeyBinding] = files + form + queue + global

    /// The binding a key triggers in a pane.
    ///
    /// - Parameters:
    ///   - event: The key.
    ///   - pane: The focused pane.
    /// - Returns: The binding, if any.
    public static func binding(for event: KeyEvent, in pane: Pane) -> KeyBinding? {
        all.first { ($0.pane == pane || $0.pane == nil) && $0.keys.contains(event) }
    }

    /// The bindings the help bar shows for a pane: the pane's, then the global ones.
    ///
    /// - Parameter pane: The focused pane.
    /// - Returns: The bindings.
    public static func helpBar(for pane: Pane) -> [KeyBinding] {
        all.filter { ($0.pane == pane || $0.pane == nil) && $0.showsInHelpBar }
    }

    /// Whether an action only moves the cursor (the same keys in every list).
    ///
    /// - Parameter action: The action.
    /// - Returns: Whether it is a movement.
    public static func isMovement(_ action: KeyAction) -> Bool {
        movement.contains { $0.action == action }
    }

    private static func key(_ key: Key) -> KeyEvent { .key(key) }
    private static func char(_ character: Character) -> KeyEvent { .key(.character(character)) }

    private static let movement: [(keys: [KeyEvent], label: String, description: String, action: KeyAction)] = [
        ([char("k"), key(.up)], "k/↑", "up", .move(.up)),
        ([char("j"), key(.down)], "j/↓", "down", .move(.down)),
        ([key(.pageUp)], "PgUp", "page up", .move(.pageUp)),
        ([key(.pageDown)], "PgDn", "page down", .move(.pageDown)),
        ([char("g"), key(.home)], "g", "top", .move(.top)),
        ([char("G"), key(.end)], "G", "bottom", .move(.bottom)),
    ]

    private static func moves(in pane: Pane) -> [KeyBinding] {
        movement.map { KeyBinding($0.keys, $0.label, $0.description, pane: pane, action: $0.action, showsInHelpBar: false) }
    }

    private static let files: [KeyBinding] = moves(in: .files) + [
        KeyBinding([char("l"), key(.enter), key(.right)], "l/→", "open", pane: .files, action: .open,
                   helpBarPriority: .high, whyDisabled: { state in
                       guard let entry = state.browser.current else { return state.browser.whyNothingShown }
                       if entry.isUnreadable { return "\(entry.name) cannot be opened" }
                       return entry.isDirectory ? nil : "not a folder"
                   }),
        KeyBinding([char("h"), key(.backspace), key(.left)], "h/←", "up", pane: .files, action: .parent, helpBarPriority: .high),
        KeyBinding([char("~")], "~", "home", pane: .files, action: .home, showsInHelpBar: false),
        KeyBinding([char("/")], "/", "filter", pane: .files, action: .filter, helpBarPriority: .high),
        KeyBinding([char("r")], "r", "refresh", pane: .files, action: .refresh, helpBarPriority: .low),
        KeyBinding([key(.escape)], "Esc", "clear filter", pane: .files, action: .clearFilter, showsInHelpBar: false,
                   whyDisabled: { $0.browser.filter.isEmpty ? "no filter" : nil }),
        KeyBinding([char(".")], ".", "hidden", pane: .files, action: .toggleHidden, showsInHelpBar: false),
        KeyBinding([char("s")], "s", "sort", pane: .files, action: .cycleSort, helpBarPriority: .low),
        KeyBinding([char(" ")], "Space", "select", pane: .files, action: .toggleSelection,
                   helpBarPriority: .high, whyDisabled: { state in
                       guard let entry = state.browser.current else { return state.browser.whyNothingShown }
                       if let problem = entry.problem { return "\(entry.name): \(problem)" }
                       return entry.kind == .other ? "not a regular file" : nil
                   }),
        KeyBinding([char("a")], "a", "all", pane: .files, action: .selectAll,
                   whyDisabled: { state in
                       state.browser.visible.contains { state.browser.entries[$0].kind == .file } ? nil : "no files shown"
                   }),
    ]

    private static let form: [KeyBinding] = moves(in: .form) + [
        KeyBinding([key(.enter)], "Enter", "edit or choose", pane: .form, action: .edit, helpBarPriority: .high,
                   liveDescription: { state in
                       switch state.form.currentField {
                       case .method: "choose"
                       case let field where field.isSwitch: "switch"
                       case .newParameter, .newHeader: "add"
                       default: "edit"
                       }
                   }),
        KeyBinding([char("n")], "n", "add row", pane: .form, action: .addRow),
        KeyBinding([char("d")], "d", "delete row", short: "delete", pane: .form, action: .deleteRow,
                   whyDisabled: { state in
                       switch state.form.currentField {
                       case .parameter, .header: nil
                       default: "only parameter and header rows can be deleted"
                       }
                   }),
        KeyBinding([char("m")], "m", "show/mask secrets", short: "secrets", pane: .form, action: .reveal,
                   liveDescription: { $0.form.revealsSecrets ? "mask secrets" : "show secrets" }),
        KeyBinding([char("v")], "v", "view request", short: "request", pane: .form, action: .viewRequest,
                   whyDisabled: { $0.form.blockingReason }),
        KeyBinding([char("y")], "y", "copy as curl", short: "curl", pane: .form, action: .copyCurl,
                   whyDisabled: { state in
                       state.form.settings.usesTus ? "tus is a conversation of requests: no one curl command sends it"
                           : state.form.blockingReason
                   }),
        KeyBinding([char("P")], "P", "load a profile", short: "profiles", pane: .form, action: .pickProfile),
        KeyBinding([char("S")], "S", "save as profile", short: "save", pane: .form, action: .saveAsProfile),
    ]

    private static let queue: [KeyBinding] = moves(in: .queue) + [
        KeyBinding([key(.enter)], "Enter", "details", pane: .queue, action: .details,
                   helpBarPriority: .high, whyDisabled: { $0.queue.current == nil ? "the queue is empty" : nil }),
        KeyBinding([char("r")], "r", "retry", pane: .queue, action: .retry,
                   helpBarPriority: .high, whyDisabled: { state in
                       guard let job = state.queue.current else { return "the queue is empty" }
                       return job.state == .failed || job.state == .cancelled || job.isHeld
                           ? nil : "only failed, cancelled or held jobs can be retried"
                   }),
        KeyBinding([char("R")], "R", "retry failed and cancelled", short: "retry all", pane: .queue,
                   action: .retryFailedAndCancelled, liveDescription: { "retry failed and cancelled\(shownWord($0))" },
                   whyDisabled: { state in
                       state.queue.summary.failed + state.queue.summary.cancelled == 0
                           || !shows(state, { $0.state == .failed || $0.state == .cancelled })
                           ? "no failed or cancelled jobs\(shownWord(state))" : nil
                   }),
        KeyBinding([char("c")], "c", "cancel", pane: .queue, action: .cancel,
                   helpBarPriority: .high, whyDisabled: { state in
                       guard let job = state.queue.current else { return "the queue is empty" }
                       return job.state.isFinished ? "the job has finished" : nil
                   }),
        KeyBinding([char("C")], "C", "cancel all", pane: .queue, action: .cancelAll,
                   liveDescription: { "cancel all\(shownWord($0))" },
                   whyDisabled: { state in
                       state.queue.hasActiveJobs && shows(state, { $0.state == .queued || $0.state == .uploading })
                           ? nil : "nothing to cancel\(shownWord(state))"
                   }),
        KeyBinding([char("p")], "p", "pause, resume, start held", pane: .queue, action: .togglePause, helpBarPriority: .high,
                   liveDescription: { state in
                       if state.queue.isPaused { return "resume" }
                       return state.queue.heldCount > 0 ? "start held" : "pause"
                   }),
        KeyBinding([char("d")], "d", "remove", pane: .queue, action: .remove,
                   helpBarPriority: .high, whyDisabled: { state in
                       guard let job = state.queue.current else { return "the queue is empty" }
                       return job.state == .uploading ? "cancel the upload first" : nil
                   }),
        KeyBinding([char("x")], "x", "clear done", short: "clear", pane: .queue, action: .clearSucceeded,
                   helpBarPriority: .high, liveDescription: { "clear done\(shownWord($0))" }),
        KeyBinding([char("f")], "f", "next failure", pane: .queue, action: .nextFailure, showsInHelpBar: false,
                   whyDisabled: { state in
                       state.queue.summary.failed == 0 || !shows(state, { $0.state == .failed })
                           ? "no failed jobs\(shownWord(state))" : nil
                   }),
        KeyBinding([char("D")], "D", "remove failed jobs", pane: .queue, action: .removeFailed, showsInHelpBar: false,
                   liveDescription: { "remove failed jobs\(shownWord($0))" },
                   whyDisabled: { state in
                       state.queue.summary.failed == 0 || !shows(state, { $0.state == .failed })
                           ? "no failed jobs\(shownWord(state))" : nil
                   }),
        KeyBinding([char("v")], "v", "view request", short: "request", pane: .queue, action: .viewRequest,
                   showsInHelpBar: false, whyDisabled: { $0.queue.current == nil ? "the queue is empty" : nil }),
        KeyBinding([char("y")], "y", "copy as curl", pane: .queue, action: .copyCurl, showsInHelpBar: false,
                   whyDisabled: { state in
                       guard let job = state.queue.current else { return "the queue is empty" }
                       return job.spec.tus != nil ? "tus is a conversation of requests: no one curl command sends it" : nil
                   }),
        KeyBinding([char("Y")], "Y", "copy the answer's link", pane: .queue, action: .copyLink, showsInHelpBar: false,
                   whyDisabled: { state in
                       guard let row = state.queue.current.flatMap({ state.queue.rows[$0.id] }) else { return "the queue is empty" }
                       return row.link == nil ? "the server's answer gave no link" : nil
                   }),
        KeyBinding([char("/")], "/", "filter (name, is:failed)", short: "filter", pane: .queue, action: .filter),
        KeyBinding([key(.escape)], "Esc", "clear filter", pane: .queue, action: .clearFilter, showsInHelpBar: false,
                   whyDisabled: { $0.queue.isFiltered ? nil : "no filter" }),
        KeyBinding([char("+"), char("=")], "+/-", "more/fewer at once", short: "at once", pane: .queue,
                   action: .moreConcurrency, helpBarPriority: .low),
        KeyBinding([char("-")], "-", "fewer at once", pane: .queue, action: .lessConcurrency, showsInHelpBar: false,
                   isListedInHelpScreen: false),
    ]

    /// Whether the Queue shows a job that passes `test` (any job passes when no filter hides
    /// jobs: the counts already said there is one).
    private static func shows(_ state: AppState, _ test: (QueueRow) -> Bool) -> Bool {
        guard state.queue.isFiltered else { return true }
        return state.queue.shown.contains { state.queue.rows[$0].map(test) ?? false }
    }

    /// " shown" while a filter hides jobs: the keys that act on many jobs act on those shown.
    private static func shownWord(_ state: AppState) -> String {
        state.queue.isFiltered ? " shown" : ""
    }

    private static let global: [KeyBinding] = [
        KeyBinding([char("u")], "u", "upload", pane: nil, action: .queueSelection,
                   whyDisabled: { state in
                       if state.browser.selection.isEmpty { return "nothing selected" }
                       return state.form.blockingReason
                   }),
        KeyBinding([key(.tab)], "Tab", "next pane", short: "pane", pane: nil, action: .nextPane,
                   helpBarPriority: .low),
        KeyBinding([key(.backTab)], "Shift-Tab", "previous pane", pane: nil, action: .previousPane, showsInHelpBar: false),
        KeyBinding([char("1")], "1", "files", pane: nil, action: .focus(.files), showsInHelpBar: false),
        KeyBinding([char("2")], "2", "form", pane: nil, action: .focus(.form), showsInHelpBar: false),
        KeyBinding([char("3")], "3", "queue", pane: nil, action: .focus(.queue), showsInHelpBar: false),
        KeyBinding([char("?")], "?", "help", pane: nil, action: .showHelp, helpBarPriority: .essential),
        KeyBinding([char("q")], "q", "quit", pane: nil, action: .quit, helpBarPriority: .essential),
        KeyBinding([key(.ctrl("c"))], "Ctrl-C", "quit now", pane: nil, action: .forceQuit, showsInHelpBar: false),
        KeyBinding([key(.ctrl("z"))], "Ctrl-Z", "suspend (fg comes back)", pane: nil, action: .suspend, showsInHelpBar: false),
    ]
}
