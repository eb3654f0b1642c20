import TerminalUI

/// The profile picker over the Form: each profile's name and URL, or why it cannot be used.
struct ProfilePickerBox: Widget {
    /// The picker.
    let picker: ProfilePicker

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let inner = Overlay.frame("Profiles in \(picker.file)", in: area, buffer: &buffer)
        let scroll = ListScroll(count: picker.choices.count, viewportHeight: inner.height, cursor: picker.cursor)
            .fitted(viewportHeight: inner.height)
        for (row, index) in scroll.visibleRange.enumerated() {
            let choice = picker.choices[index]
            let line = Rect(x: inner.x, y: inner.y + row, width: inner.width, height: 1)
            let detail: Span
            switch choice.profile {
            case .success(let profile): detail = Span(profile.url ?? "(no URL)", style: Theme.dim)
            case .failure(let problem): detail = Span("✗ \(problem.description)", style: Theme.error)
            }
            TextLine([Span(choice.name, style: Theme.heading), Span("  "), detail]).render(in: line, buffer: &buffer)
            if index == picker.cursor { buffer.patchStyle(Theme.cursor, in: line) }
        }
    }
}
