import TerminalUI
import TextFormat

/// The form pane: one row per field, parameter and header, with inline errors.
struct FormPane: Widget {
    /// The state to draw.
    let state: AppState

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let form = state.form
        let fields = form.fields
        let scroll = form.scroll.fitted(viewportHeight: area.height, count: fields.count)
        let labelWidth = 13
        for (row, index) in scroll.visibleRange.enumerated() {
            let field = fields[index]
            let line = Rect(x: area.x, y: area.y + row, width: area.width, height: 1)
            let isNewRow = field == .newParameter || field == .newHeader
            buffer.put(DisplayWidth.fit(field.label, width: labelWidth - 1), at: line.origin,
                       style: isNewRow ? Theme.dim : Theme.heading)
            let valueArea = Rect(x: line.x + labelWidth, y: line.y, width: max(0, line.width - labelWidth), height: 1)
            if let editing = form.editing, editing.field == field {
                var input = TextInput(editor: editing.editor, isMasked: form.isMasked(field), isFocused: true,
                                      style: Style(underline: true))
                // A secret header's name stays readable; only its value is masked.
                let graphemes = editing.editor.graphemes
                input.maskedFrom = graphemes.firstIndex(of: ":").map { $0 + 1 } ?? graphemes.count
                input.render(in: valueArea, buffer: &buffer)
                continue
            }
            if field == .method, let choice = form.methodChoice {
                var x = valueArea.x
                for (position, option) in form.methodOptions.enumerated() {
                    x += buffer.put((position > 0 ? "  " : ""), at: Point(x: x, y: line.y), maxWidth: valueArea.maxX - x)
                    x += buffer.put(option, at: Point(x: x, y: line.y), style: position == choice ? Theme.cursor : .plain,
                                    maxWidth: valueArea.maxX - x)
                }
                continue
            }
            var used = buffer.put(form.displayText(of: field), at: valueArea.origin,
                                  style: isNewRow ? Theme.dim : .plain, maxWidth: valueArea.width)
            if let error = form.error(of: field) {
                used += buffer.put("  ✗ " + error, at: Point(x: valueArea.x + used, y: line.y), style: Theme.error,
                                   maxWidth: valueArea.width - used)
            }
            if index == scroll.cursor && state.focus == .form {
                buffer.patchStyle(Theme.cursor, in: line)
            }
        }
    }
}
