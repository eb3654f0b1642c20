import TerminalUI
import TextFormat
import UploadModel

/// The status line: the notice (for a few seconds) or the URL on the left; on the right the
/// selection, the queue's counts in words (active ones over the concurrency) and how much has
/// been sent, or what a pause means while the queue is paused, or which endpoint is paused and
/// why (refused credentials, a `Retry-After` counting down).
struct StatusLine: Widget {
    /// The state to draw.
    let state: AppState

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: Theme.status)
        let right = summary(forWidth: row.width) + " "
        let rightWidth = min(DisplayWidth.of(right), row.width)
        buffer.put(DisplayWidth.fit(right, width: rightWidth, alignment: .right),
                   at: Point(x: row.maxX - rightWidth, y: row.y), style: Theme.status)
        let leftWidth = max(0, row.width - rightWidth - 1)
        if let notice = state.notice {
            // Control characters (a tab in a file name) show escaped, as in the file list.
            buffer.put(" " + DisplayWidth.fit(DisplayWidth.escapingControls(notice), width: max(0, leftWidth - 1)), at: row.origin,
                       style: Theme.status.patched(with: Style(bold: true)))
        } else {
            let settings = state.form.settings
            let url = settings.url.isEmpty ? "no URL (set it in the Form)" : settings.url
            let proxy = settings.connection.proxyAddress(for: settings.url).map { " via proxy \($0)" } ?? ""
            let urlWidth = max(0, leftWidth - 3 - DisplayWidth.of(proxy))
            buffer.put(" → " + DisplayWidth.truncateMiddle(url, toWidth: urlWidth) + proxy, at: row.origin,
                       style: Theme.status, maxWidth: leftWidth)
        }
    }

    /// The right-hand text. Every count is spelled out on a wide row; below 100 columns the
    /// counts that are zero are left out. While paused, what the pause means replaces them.
    private func summary(forWidth width: Int) -> String {
        let summary = state.queue.summary
        let selection = "sel \(state.browser.selection.count) (\(HumanFormat.bytes(state.browser.selectedBytes)))"
        let counts = [("queued", "\(summary.queued)"), ("active", "\(summary.uploading)/\(state.form.settings.concurrency)"),
                      ("done", "\(summary.succeeded)"), ("failed", "\(summary.failed)"), ("cancelled", "\(summary.cancelled)")]
        let shown = width >= 100 ? counts : counts.filter { !$0.1.hasPrefix("0") }
        if state.queue.isPaused { return "\(selection) │ \(pauseExplanation)" }
        if let endpoints = state.endpointPauseSummary { return "\(selection) │ \(endpoints)" }
        if summary.total == 0 { return "\(selection) │ queue empty" }
        let queue = shown.isEmpty ? "nothing to send" : shown.map { "\($0.0) \($0.1)" }.joined(separator: " ")
        return "\(selection) │ \(queue) │ \(HumanFormat.percent(Self.sentFraction(summary)))"
    }

    /// How much of the queue's files has been sent, from 0 to 1: failed and cancelled files count
    /// as not sent, so a queue where everything failed never shows 100 %.
    static func sentFraction(_ summary: UploadSummary) -> Double {
        if summary.totalBytes > 0 { return min(1, Double(summary.bytesSent) / Double(summary.totalBytes)) }
        return summary.total > 0 ? Double(summary.succeeded) / Double(summary.total) : 0
    }

    /// What pausing means right now: the uploads in flight finish, the queued ones wait.
    private var pauseExplanation: String {
        let summary = state.queue.summary
        var parts: [String] = []
        if summary.uploading > 0 { parts.append("\(summary.uploading) finishing") }
        if summary.queued > 0 { parts.append("\(summary.queued) waiting") }
        return parts.isEmpty ? "paused" : "paused: " + parts.joined(separator: ", ")
    }
}
