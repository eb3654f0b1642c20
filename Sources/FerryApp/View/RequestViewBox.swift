import TerminalUI

/// The request (`v`) or curl command (`y`) over the pane: a box of wrapped lines that scrolls.
struct RequestViewBox: Widget {
    /// What to show.
    let view: RequestView

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let inner = Overlay.frame("\(view.title) — Esc closes", in: area, buffer: &buffer)
        Paragraph(view.lines.map { TextLine($0) }, wrap: true, scroll: view.scroll).render(in: inner, buffer: &buffer)
    }
}
