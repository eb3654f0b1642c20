import FoundationEssentials
import TerminalUI
import TextFormat

/// The file browser pane: a header with the folder, filter and sort, then one row per entry.
struct FilesPane: Widget {
    /// The state to draw.
    let state: AppState

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let browser = state.browser
        let (header, list) = area.splitTop(1)
        renderHeader(in: header, buffer: &buffer)
        let scroll = browser.scroll.fitted(viewportHeight: list.height, count: browser.visible.count)
        if browser.visible.isEmpty {
            // A folder that could not be opened at start has no entries: the header says why.
            let text = browser.error != nil && browser.entries.isEmpty
                ? "h/← opens the parent folder, ~ your home" : "(\(browser.whyNothingShown))"
            buffer.put(text, at: list.origin, style: Theme.dim, maxWidth: list.width)
            return
        }
        let showsTime = list.width >= 60
        let sizeWidth = 9
        let timeWidth = showsTime ? 17 : 0
        let nameWidth = max(1, list.width - 2 - sizeWidth - timeWidth)
        for (row, index) in scroll.visibleRange.enumerated() {
            let entry = browser.entries[browser.visible[index]]
            let y = list.y + row
            let isCursor = index == scroll.cursor
            let selected = entry.isDirectory ? browser.hasSelection(under: entry.path) : browser.isSelected(entry.path)
            var nameStyle: Style = entry.isDirectory ? Theme.directory : (selected ? Theme.selected : .plain)
            if entry.problem != nil { nameStyle = Theme.error }
            // A folder part of which is selected shows ◐ and how many of its files are.
            let isPartial = selected && entry.isDirectory && !browser.isWhollySelected(entry.path)
            buffer.put(selected ? (isPartial ? "◐ " : "✓ ") : "  ", at: Point(x: list.x, y: y), style: Theme.selected)
            var name = entry.name + (entry.isDirectory ? "/" : "")
            if isPartial { name += " (\(browser.selectedCount(under: entry.path)) selected)" }
            if entry.isSymlink { name += " →" }
            if let problem = entry.problem { name += " [\(problem)]" }
            buffer.put(DisplayWidth.fit(name, width: nameWidth), at: Point(x: list.x + 2, y: y), style: nameStyle)
            let size = entry.isDirectory ? "" : (entry.kind == .file ? HumanFormat.bytes(entry.size) : "")
            buffer.put(DisplayWidth.fit(size, width: sizeWidth, alignment: .right),
                       at: Point(x: list.x + 2 + nameWidth, y: y), style: Theme.dim)
            if showsTime, let date = entry.modificationDate {
                buffer.put(" " + HumanFormat.timestamp(date, timeZone: state.timeZone),
                           at: Point(x: list.x + 2 + nameWidth + sizeWidth, y: y), style: Theme.dim, maxWidth: timeWidth)
            }
            if isCursor && state.focus == .files {
                buffer.patchStyle(Theme.cursor, in: Rect(x: list.x, y: y, width: list.width, height: 1))
            }
        }
    }

    private func renderHeader(in row: Rect, buffer: inout CellBuffer) {
        let browser = state.browser
        if let error = browser.error {
            buffer.put("✗ " + DisplayWidth.fit(error, width: row.width - 2), at: row.origin, style: Theme.error)
            return
        }
        var right = "sort:\(browser.sort.rawValue)"
        if browser.showsHidden { right = "hidden " + right }
        if let editor = browser.filterEditor {
            let label = "filter: "
            let inputWidth = max(1, min(24, row.width / 3))
            let start = row.maxX - label.count - inputWidth
            buffer.put(DisplayWidth.truncateMiddle(browser.directory.displayablePath, toWidth: max(1, start - row.x - 1)),
                       at: row.origin, style: Theme.heading)
            buffer.put(label, at: Point(x: start, y: row.y), style: Theme.notice)
            TextInput(editor: editor, isFocused: true, style: Style(underline: true))
                .render(in: Rect(x: start + label.count, y: row.y, width: inputWidth, height: 1), buffer: &buffer)
            return
        }
        if !browser.filter.isEmpty { right = "/\(browser.filter) " + right }
        let rightWidth = min(DisplayWidth.of(right), row.width / 2)
        buffer.put(DisplayWidth.truncateMiddle(browser.directory.displayablePath, toWidth: max(1, row.width - rightWidth - 1)),
                   at: row.origin, style: Theme.heading)
        buffer.put(DisplayWidth.fit(right, width: rightWidth, alignment: .right),
                   at: Point(x: row.maxX - rightWidth, y: row.y), style: Theme.dim)
    }
}
