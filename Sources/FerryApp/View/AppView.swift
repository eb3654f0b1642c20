import TerminalUI
import TextFormat
import UploadModel

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
        } else if let view = state.requestView {
            RequestViewBox(view: view).render(in: layout.helpScreen, buffer: &buffer)
        } else if let editor = state.profileNameEditor {
            ProfileNamePrompt(editor: editor).render(in: layout.helpScreen, buffer: &buffer)
        } else if let picker = state.profilePicker {
            ProfilePickerBox(picker: picker).render(in: layout.helpScreen, buffer: &buffer)
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

    /// The help bar: the keys of the mode the interface is in (``AppState/inputMode``), as the
    /// model handles them.
    private static func renderHelpBar(_ state: AppState, in row: Rect, buffer: inout CellBuffer) {
        let mode = state.inputMode
        var bindings = ModalKeys.bindings(for: mode).filter(\.showsInHelpBar)
        if mode == .quitWait { bindings += KeyBindings.all.filter { $0.action == .showHelp } }
        if mode.fallsThroughToPane && mode != .quitWait { bindings += KeyBindings.helpBar(for: state.focus) }
        HelpBar(items: bindings.map { $0.helpBarItem(in: state) }).render(in: row, buffer: &buffer)
    }

    /// A dialog's buttons: its keys as ``ModalKeys`` declares them.
    private static func buttons(for confirmation: Confirmation) -> [String] {
        ModalKeys.bindings(for: .dialog(confirmation)).filter(\.showsInHelpBar).map { "\($0.label): \($0.description)" }
    }

    private static func dialog(for confirmation: Confirmation) -> Dialog {
        switch confirmation {
        case let .quit(inFlight, waiting) where inFlight > 0:
            let rest = waiting > 0 ? " \(waiting) more waiting to start stay queued for the next start." : ""
            return Dialog(title: "Quit?", message: "\(inFlight) upload(s) are being sent.\(rest) "
                          + "Let them finish first, or stop them now (a stopped one goes again next time; one whose "
                          + "whole file went out waits for you, unless its server can say whether it arrived)?",
                          buttons: buttons(for: confirmation), maxWidth: 60)
        case let .quit(_, waiting):
            return Dialog(title: "Quit?", message: "\(waiting) upload(s) wait to start. Quit? They are kept "
                          + "and wait for you on the next start.",
                          buttons: buttons(for: confirmation), maxWidth: 50)
        case let .resend(_, name):
            return Dialog(title: "Send again?", message: "\(name) may have arrived: Ferry stopped after sending all "
                          + "of it, before the server answered. Send it again (the server may keep two copies)?",
                          buttons: buttons(for: confirmation), maxWidth: 56)
        case let .earlierFailures(ids):
            return Dialog(title: "Earlier failures", message: "\(ids.count) upload(s) failed in an earlier session. "
                          + "Keep them in the queue to review (r retries one, R all), or clear them?",
                          buttons: buttons(for: confirmation), maxWidth: 56)
        case let .retryWithForm(ids, changes, _):
            let jobs = ids.count == 1 ? "this upload was" : "\(ids.count) uploads were"
            return Dialog(title: "Retry with the form as it is now?",
                          message: "The form's \(changes.joined(separator: ", ")) changed since \(jobs) queued. "
                          + "Send with the form as it is now, or as queued?",
                          buttons: buttons(for: confirmation), maxWidth: 60)
        case .selectFolder(let collection):
            return Dialog(title: "Select folder?",
                          message: "Select \(collection.files.count) files (\(HumanFormat.bytes(collection.totalBytes))) "
                          + "under \(collection.directory.displayablePath)?",
                          buttons: buttons(for: confirmation), maxWidth: 50)
        }
    }
}
