import TerminalUI

/// The request (`v`) or curl command (`y`) over the pane: a box of wrapped lines that scrolls.
struct RequestViewBox: Widget {
    /// What to show.
    let view: RequestView

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        Clear().render(in: area, buffer: &buffer)
        let block = Block(title: TextLine(" \(view.title) — Esc closes ", style: Theme.heading))
        block.render(in: area, buffer: &buffer)
        Paragraph(view.lines.map { TextLine($0) }, wrap: true, scroll: view.scroll).render(in: block.inner(area), buffer: &buffer)
    }
}
