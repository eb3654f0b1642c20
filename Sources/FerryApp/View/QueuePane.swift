import TerminalUI
import TextFormat
import UploadModel

/// The queue pane: a header and one row per job (only the visible rows are drawn), or the
/// details of one job.
struct QueuePane: Widget {
    /// The state to draw.
    let state: AppState

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let queue = state.queue
        if let job = queue.detailsJob {
            JobDetails(job: job, isLoading: queue.isLoadingDetails, problem: queue.detailsProblem,
                       retriedWithForm: queue.retriedWithForm[job.id], scroll: queue.detailsScroll)
                .render(in: area, buffer: &buffer)
            return
        }
        let (header, rest) = area.splitTop(1)
        var list = rest
        let columns = Columns(width: area.width)
        renderRow(columns.titles, in: header, buffer: &buffer, style: Theme.heading)
        if queue.filterEditor != nil || queue.isFiltered {
            let filterLine: Rect
            (filterLine, list) = list.splitTop(1)
            renderFilter(in: filterLine, buffer: &buffer)
        }
        let shown = queue.shown
        guard !shown.isEmpty else {
            let empty = queue.order.isEmpty ? "(no uploads yet: select files and press u)" : Self.nothingMatches(queue.filter)
            buffer.put(empty, at: list.origin, style: Theme.dim, maxWidth: list.width)
            return
        }
        let scroll = queue.scroll.fitted(viewportHeight: list.height, count: shown.count)
        // Jobs shown that go to more than one URL are told apart by where they go.
        let urls = Set(scroll.visibleRange.compactMap { queue.rows[shown[$0]]?.job.spec.url })
        for (row, index) in scroll.visibleRange.enumerated() {
            guard let queueRow = queue.rows[shown[index]] else { continue }
            let line = Rect(x: list.x, y: list.y + row, width: list.width, height: 1)
            renderJob(queueRow.job, link: queueRow.link, columns: columns, showsTarget: urls.count > 1, in: line, buffer: &buffer)
            if index == scroll.cursor && state.focus == .queue {
                buffer.patchStyle(Theme.cursor, in: line)
            }
        }
    }

    private func renderJob(_ job: UploadJob, link: String?, columns: Columns, showsTarget: Bool, in line: Rect,
                           buffer: inout CellBuffer) {
        let stateStyle = Theme.style(for: job.state)
        var x = line.x
        buffer.put(job.stateMark, at: Point(x: x, y: line.y), style: stateStyle)
        x += 2
        let name = showsTarget ? job.displayName + " → " + Self.target(of: job.spec.url) : job.displayName
        buffer.put(DisplayWidth.fit(name, width: columns.name), at: Point(x: x, y: line.y))
        x += columns.name + 1
        // The files' size: what the user picked. The request's size is in the details.
        buffer.put(DisplayWidth.fit(HumanFormat.bytes(job.spec.estimatedBytes), width: columns.size, alignment: .right),
                   at: Point(x: x, y: line.y), style: Theme.dim)
        x += columns.size + 1
        let restWidth = line.maxX - x - (columns.attempts > 0 ? columns.attempts + 1 : 0)
        if job.state == .failed {
            buffer.put(DisplayWidth.fit(DisplayWidth.escapingControls(job.failureSummary), width: max(0, restWidth)),
                       at: Point(x: x, y: line.y),
                       style: Theme.error)
        } else if let link {
            // What a done job's full bar would say, the ✓ says; the link is what the user wants next.
            buffer.put(DisplayWidth.fit("→ " + DisplayWidth.escapingControls(link), width: max(0, restWidth)),
                       at: Point(x: x, y: line.y), style: stateStyle)
        } else {
            // A queued job has sent nothing yet, whatever its last attempt got to.
            let fraction = switch job.state {
            case .succeeded: 1.0
            // A cancelled job's bar is empty: it does not look sent.
            case .queued, .cancelled: 0.0
            default: job.progress.fractionCompleted ?? 0
            }
            ProgressBar(fraction: fraction, style: stateStyle, emptySymbol: "·")
                .render(in: Rect(x: x, y: line.y, width: columns.bar, height: 1), buffer: &buffer)
            x += columns.bar + 1
            buffer.put(DisplayWidth.fit(HumanFormat.percent(fraction), width: 4, alignment: .right),
                       at: Point(x: x, y: line.y))
            x += 5
            if columns.speed > 0 {
                let rate = state.queue.progressWatch.shownRate(of: job, at: state.now) ?? 0
                let speed = job.state == .uploading ? HumanFormat.rate(bytesPerSecond: rate) : ""
                buffer.put(DisplayWidth.fit(speed, width: columns.speed, alignment: .right), at: Point(x: x, y: line.y),
                           style: Theme.dim)
                x += columns.speed + 1
            }
            buffer.put(DisplayWidth.fit(info(for: job, width: columns.info), width: columns.info), at: Point(x: x, y: line.y),
                       style: stateStyle)
        }
        if columns.attempts > 0 {
            buffer.put(DisplayWidth.fit("#\(job.attempts)", width: columns.attempts, alignment: .right),
                       at: Point(x: line.maxX - columns.attempts, y: line.y), style: Theme.dim)
        }
    }

    /// The filter line: the editor while `/` is active (with the syntax while it is empty),
    /// else the filter; then how many jobs it shows.
    private func renderFilter(in line: Rect, buffer: inout CellBuffer) {
        let queue = state.queue
        let count = "\(queue.shown.count) of \(queue.order.count) shown"
        let countWidth = min(DisplayWidth.of(count), max(0, line.width / 3))
        let label = "filter: "
        buffer.put(label, at: line.origin, style: Theme.notice, maxWidth: line.width)
        let inputX = line.x + label.count
        let inputWidth = max(0, line.maxX - inputX - countWidth - 1)
        if let editor = queue.filterEditor {
            TextInput(editor: editor, isFocused: true, style: Style(underline: true))
                .render(in: Rect(x: inputX, y: line.y, width: inputWidth, height: 1), buffer: &buffer)
            if editor.text.isEmpty, inputWidth > 2 {
                buffer.put("name, is:failed is:held is:queued is:uploading is:done is:cancelled",
                           at: Point(x: inputX + 1, y: line.y), style: Theme.dim, maxWidth: inputWidth - 1)
            }
        } else {
            buffer.put(DisplayWidth.fit(DisplayWidth.escapingControls(queue.filter.text) + "  (Esc clears)", width: inputWidth),
                       at: Point(x: inputX, y: line.y))
        }
        buffer.put(DisplayWidth.fit(count, width: countWidth, alignment: .right),
                   at: Point(x: line.maxX - countWidth, y: line.y), style: Theme.dim)
    }

    /// What the list says when the filter shows no job.
    static func nothingMatches(_ filter: QueueFilter) -> String {
        if !filter.unknownStates.isEmpty {
            return "no state is called \(filter.unknownStates.joined(separator: ", ")): "
                + "is:queued, is:held, is:uploading, is:done, is:failed or is:cancelled"
        }
        return "no job matches the filter (Esc clears it)"
    }

    /// Where a job goes, shortly: host, port and path, without the scheme.
    static func target(of url: String) -> String {
        guard let target = try? UploadTarget(url) else { return url }
        return target.host + (target.port.map { ":\($0)" } ?? "") + target.requestTarget
    }

    /// The state column: the ETA, a retry countdown, how long a transfer has stalled, or the
    /// state in a word; shorter words when `width` is narrow.
    private func info(for job: UploadJob, width: Int) -> String {
        let isWide = width >= 13
        switch job.state {
        case .queued:
            if job.isHeld { return isWide ? "held (p)" : "held" }
            guard let retryAt = job.retryAt else { return state.queue.isPaused ? "paused" : "queued" }
            guard let now = state.now else { return "retry" }
            let seconds = Int(((retryAt - now) / .seconds(1)).rounded(.up))
            if seconds <= 0 { return "retrying" }
            return (isWide ? "retry in " : "retry ") + HumanFormat.duration(seconds: Double(seconds))
        case .uploading where (job.progress.fractionCompleted ?? 0) >= 1: return "waiting"
        case .uploading:
            if let stall = state.queue.progressWatch.stall(of: job, at: state.now) {
                return (isWide ? "stalled " : "stall ") + HumanFormat.duration(stall)
            }
            guard let rate = state.queue.progressWatch.shownRate(of: job, at: state.now), rate > 0,
                  let total = job.progress.totalBytes else {
                return job.progress.estimatedTimeRemaining.map { HumanFormat.duration($0) } ?? "--"
            }
            return HumanFormat.eta(remainingBytes: total - job.progress.bytesSent, bytesPerSecond: rate)
        case .succeeded: return "done"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        }
    }

    private func renderRow(_ titles: [(String, Int, Alignment)], in line: Rect, buffer: inout CellBuffer, style: Style) {
        var x = line.x
        for (title, width, alignment) in titles where width > 0 {
            buffer.put(DisplayWidth.fit(title, width: width, alignment: alignment), at: Point(x: x, y: line.y), style: style)
            x += width + 1
        }
    }

    /// Column widths of the table for a given width.
    private struct Columns {
        var name: Int
        var size = 9
        var bar: Int
        var speed: Int
        var info: Int
        var attempts: Int

        init(width: Int) {
            speed = width >= 70 ? 10 : 0
            info = width >= 70 ? 13 : 9
            attempts = width >= 60 ? 3 : 0
            bar = width >= 100 ? 20 : (width >= 60 ? 12 : 6)
            let fixed = 2 + size + 1 + bar + 1 + 5 + (speed > 0 ? speed + 1 : 0) + info + (attempts > 0 ? attempts + 1 : 0) + 1
            name = max(4, width - fixed)
        }

        var titles: [(String, Int, Alignment)] {
            [("", 1, .left), ("Name", name, .left), ("Size", size, .right), ("Progress", bar, .left), ("", 4, .right),
             ("Speed", speed, .right), ("ETA/state", info, .left), ("Try", attempts, .right)]
        }
    }
}
