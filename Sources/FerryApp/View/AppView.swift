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
        renderStatus(state, in: layout.status, buffer: &buffer)
        renderHelpBar(state, in: layout.help, buffer: &buffer)
        if state.showsHelp {
            HelpScreen(state: state).render(in: Rect(x: 0, y: 0, width: size.width, height: layout.help.y), buffer: &buffer)
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

    private static func renderStatus(_ state: AppState, in row: Rect, buffer: inout CellBuffer) {
        buffer.fill(row, style: Theme.status)
        let summary = state.queue.summary
        let selection = "sel \(state.browser.selection.count) (\(HumanFormat.bytes(state.browser.selectedBytes)))"
        let fraction = summary.totalBytes > 0 ? Double(summary.bytesSent) / Double(summary.totalBytes) : 0
        let counts: String
        if row.width >= 100 {
            counts = "\(selection) │ queued \(summary.queued) active \(summary.uploading) done \(summary.succeeded) "
                + "failed \(summary.failed) │ \(HumanFormat.percent(fraction))"
        } else {
            counts = "\(selection) Q\(summary.queued) A\(summary.uploading) D\(summary.succeeded) "
                + "F\(summary.failed) \(HumanFormat.percent(fraction))"
        }
        let right = (state.queue.isPaused ? "PAUSED " : "") + counts + " "
        let rightWidth = min(DisplayWidth.of(right), row.width)
        buffer.put(DisplayWidth.fit(right, width: rightWidth, alignment: .right),
                   at: Point(x: row.maxX - rightWidth, y: row.y), style: Theme.status)
        let leftWidth = max(0, row.width - rightWidth - 1)
        if let notice = state.notice {
            buffer.put(" " + DisplayWidth.fit(notice, width: max(0, leftWidth - 1)), at: row.origin,
                       style: Theme.status.patched(with: Style(bold: true)))
        } else {
            let url = state.form.settings.url.isEmpty ? "no URL (set it in the Form)" : state.form.settings.url
            buffer.put(" → " + DisplayWidth.truncateMiddle(url, toWidth: max(0, leftWidth - 3)), at: row.origin,
                       style: Theme.status)
        }
    }

    private static func renderHelpBar(_ state: AppState, in row: Rect, buffer: inout CellBuffer) {
        let items: [HelpBar.Item]
        if state.browser.filterEditor != nil && state.focus == .files {
            items = [HelpBar.Item(key: "Enter", description: "keep filter"), HelpBar.Item(key: "Esc", description: "clear")]
        } else if state.form.editing != nil && state.focus == .form {
            items = [HelpBar.Item(key: "Enter", description: "save"), HelpBar.Item(key: "Esc", description: "cancel"),
                     HelpBar.Item(key: "Ctrl-U", description: "clear to start")]
        } else if state.confirmation != nil {
            items = [HelpBar.Item(key: "y", description: "yes"), HelpBar.Item(key: "n", description: "no")]
        } else {
            items = KeyBindings.helpBar(for: state.focus).map {
                HelpBar.Item(key: $0.label, description: $0.description, isEnabled: $0.whyDisabled(state) == nil)
            }
        }
        HelpBar(items: items).render(in: row, buffer: &buffer)
    }

    private static func dialog(for confirmation: Confirmation) -> Dialog {
        switch confirmation {
        case .quit(let active):
            return Dialog(title: "Quit?", message: "\(active) upload(s) are queued or running. Quit anyway? "
                          + "They stop now and are restored on the next start.",
                          buttons: ["y: quit", "n: stay"], maxWidth: 50)
        case .selectFolder(let collection):
            return Dialog(title: "Select folder?",
                          message: "Select \(collection.files.count) files (\(HumanFormat.bytes(collection.totalBytes))) "
                          + "under \(collection.directory.displayablePath)?",
                          buttons: ["y: select", "n: cancel"], maxWidth: 50)
        }
    }
}
