import TerminalUI

/// "Save the form as a profile": a box asking the profile's name.
struct ProfileNamePrompt: Widget {
    /// The name typed so far.
    let editor: LineEditor

    func render(in area: Rect, buffer: inout CellBuffer) {
        let width = min(area.width, 60)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - 4) / 2), width: width,
                       height: min(area.height, 4))
        guard !box.isEmpty else { return }
        let inner = Overlay.frame("Save the form as a profile", in: box, buffer: &buffer)
        guard !inner.isEmpty else { return }
        let label = "Name: "
        buffer.put(label, at: inner.origin, maxWidth: inner.width)
        let field = Rect(x: inner.x + label.count, y: inner.y, width: max(0, inner.width - label.count), height: 1)
        TextInput(editor: editor, placeholder: "e.g. photos", style: Style(underline: true)).render(in: field, buffer: &buffer)
        if inner.height > 1 {
            buffer.put("secret headers are written as ${NAME} references", at: Point(x: inner.x, y: inner.y + 1),
                       style: Theme.dim, maxWidth: inner.width)
        }
    }
}
