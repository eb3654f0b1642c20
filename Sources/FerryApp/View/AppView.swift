import TerminalUI
import Uploading

/// Draws the interface: the `view` of the Elm loop.
public enum AppView {
    /// Renders the whole screen for a state.
    ///
    /// - Parameters:
    ///   - state: The state.
    ///   - size: The screen size.
    /// - Returns: The frame.
    public static func render(_ state: AppState, size: Size) -> CellBuffer {
        var buffer = CellBuffer(size: size)
        let layout = AppLayout(size: size)
        guard layout.fits else {
            TooSmall(minimum: AppLayout.minimumSize).render(in: buffer.area, buffer: &buffer)
            return buffer
        }
        renderTabs(state, in: layout.tabs, buffer: &buffer)
        switch state.focus {
        case .files: FilesPane(state: state).render(in: layout.body, buffer: &buffer)
        case .form: FormPane(state: state).render(in: layout.body, buffer: &buffer)
        case .queue: QueuePane(state: state).render(in: layout.body, buffer: &buffer)
        }
        StatusLine(state: state).render(in: layout.status, buffer: &buffer)
        renderHelpBar(state, in: layout.help, buffer: &buffer)
        if state.showsHelp {
            HelpScreen(state: state).render(in: layout.helpScreen, buffer: &buffer)
        }
        if let confirmation = state.confirmation {
            dialog(for: confirmation).render(in: buffer.area, buffer: &buffer)
        }
        return buffer
    }

    private static func renderTabs(_ state: AppState, in row: Rect, buffer: inout CellBuffer) {
        var x = row.x
        for pane in Pane.allCases {
            let label = " \(pane.rawValue + 1) \(pane.title) "
            let style = pane == state.focus ? Theme.cursor.bolded() : Theme.dim
            x += buffer.put(label, at: Point(x: x, y: row.y), style: style, maxWidth: row.maxX - x)
            x += buffer.put(" ", at: Point(x: x, y: row.y), maxWidth: row.maxX - x)
        }
        let title = "ferry"
        if row.maxX - x > title.count {
            buffer.put(title, at: Point(x: row.maxX - title.count, y: row.y), style: Theme.heading)
        }
    }

    private static func renderHelpBar(_ state: AppState, in row: Rect, buffer: inout CellBuffer) {
        let items: [HelpBar.Item]
        if state.browser.filterEditor != nil && state.focus == .files {
            items = [HelpBar.Item(key: "Enter", description: "keep filter"), HelpBar.Item(key: "Esc", description: "clear")]
        } else if state.form.editing != nil && state.focus == .form {
            items = [HelpBar.Item(key: "Enter", description: "save"), HelpBar.Item(key: "Esc", description: "cancel"),
                     HelpBar.Item(key: "Ctrl-U", description: "clear to start")]
        } else if state.form.methodChoice != nil && state.focus == .form {
            items = [HelpBar.Item(key: "←/→", description: "choose"), HelpBar.Item(key: "Enter", description: "set"),
                     HelpBar.Item(key: "Esc", description: "cancel")]
        } else if let confirmation = state.confirmation {
            items = answers(to: confirmation)
        } else if state.quitsWhenInFlightFinish {
            items = [HelpBar.Item(key: "Esc", description: "stay"), HelpBar.Item(key: "q", description: "stop them now"),
                     HelpBar.Item(key: "?", description: "help")]
        } else {
            items = KeyBindings.helpBar(for: state.focus).map { $0.helpBarItem(in: state) }
        }
        HelpBar(items: items).render(in: row, buffer: &buffer)
    }

    /// The keys a question takes, for the help bar.
    private static func answers(to confirmation: Confirmation) -> [HelpBar.Item] {
        switch confirmation {
        case .quit(let inFlight, _) where inFlight > 0:
            return [HelpBar.Item(key: "Enter", description: "finish, then quit"), HelpBar.Item(key: "s", description: "stop now"),
                    HelpBar.Item(key: "Esc", description: "stay")]
        case .earlierFailures:
            return [HelpBar.Item(key: "Enter", description: "keep to review"), HelpBar.Item(key: "c", description: "clear")]
        case .quit, .resend, .selectFolder:
            return [HelpBar.Item(key: "y", description: "yes"), HelpBar.Item(key: "n", description: "no")]
        }
    }

    private static func dialog(for confirmation: Confirmation) -> Dialog {
        switch confirmation {
        case let .quit(inFlight, waiting) where inFlight > 0:
            let rest = waiting > 0 ? " \(waiting) more waiting to start stay queued for the next start." : ""
            return Dialog(title: "Quit?", message: "\(inFlight) upload(s) are being sent.\(rest) "
                          + "Let them finish first, or stop them now (a stopped one goes again next time, "
                          + "or waits for you if the server may already have it)?",
                          buttons: ["Enter: finish, then quit", "s: stop now", "Esc: stay"], maxWidth: 60)
        case let .quit(_, waiting):
            return Dialog(title: "Quit?", message: "\(waiting) upload(s) wait to start. Quit? They are kept "
                          + "and wait for you on the next start.",
                          buttons: ["y: quit", "n: stay"], maxWidth: 50)
        case let .resend(_, name):
            return Dialog(title: "Send again?", message: "\(name) may have arrived: Ferry stopped after sending all "
                          + "of it, before the server answered. Send it again (the server may keep two copies)?",
                          buttons: ["y: send again", "n: leave it"], maxWidth: 56)
        case let .earlierFailures(ids):
            return Dialog(title: "Earlier failures", message: "\(ids.count) upload(s) failed in an earlier session. "
                          + "Keep them in the queue to review (r retries one, R all), or clear them?",
                          buttons: ["Enter: keep", "c: clear"], maxWidth: 56)
        case .selectFolder(let collection):
            return Dialog(title: "Select folder?",
                          message: "Select \(collection.files.count) files (\(HumanFormat.bytes(collection.totalBytes))) "
                          + "under \(collection.directory.displayablePath)?",
                          buttons: ["y: select", "n: cancel"], maxWidth: 50)
        }
    }
}
