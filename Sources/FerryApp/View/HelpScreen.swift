import TerminalUI

/// The `?` help screen: every binding of the key-binding table, by pane, flowed into columns
/// (a key that does the same in every list is listed once).
struct HelpScreen: Widget {
    /// The state, for the bindings' enabled state.
    let state: AppState

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        Clear().render(in: area, buffer: &buffer)
        let block = Block(title: TextLine(" Keys — Esc or ? closes ", style: Theme.heading))
        block.render(in: area, buffer: &buffer)
        let inner = block.inner(area).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        let sections: [(String, Pane?)] = [("Everywhere", nil), ("Files", .files), ("Form", .form), ("Queue", .queue)]
        var lines: [TextLine] = []
        var shown = Set<String>()
        for (title, pane) in sections {
            lines.append(TextLine(title, style: Theme.heading))
            for binding in KeyBindings.all where binding.pane == pane {
                // Movement keys are the same in every list: list them once.
                guard shown.insert(binding.label + binding.description).inserted else { continue }
                let style = binding.whyDisabled(state) == nil ? Style.plain : Theme.dim
                lines.append(TextLine([Span(DisplayWidth.pad(binding.label, toWidth: 10), style: Theme.heading.patched(with: style)),
                                       Span(binding.description, style: style)]))
            }
        }
        let columnWidth = 26
        let columns = max(1, inner.width / columnWidth)
        for (index, line) in lines.enumerated() {
            let column = index / max(1, inner.height)
            guard column < columns else { break }
            let row = index % max(1, inner.height)
            line.render(in: Rect(x: inner.x + column * columnWidth, y: inner.y + row,
                                 width: min(columnWidth - 1, inner.maxX - inner.x - column * columnWidth), height: 1),
                        buffer: &buffer)
        }
    }
}
