import TextFormat

/// A centered popup box with a title, a wrapped message and a row of buttons:
///
/// ```
/// ┌ Quit? ──────────────────────┐
/// │ 2 uploads are still running.│
/// │                             │
/// │     [ Quit ]  [ Cancel ]    │
/// └─────────────────────────────┘
/// ```
///
/// The box clears what is under it. The selected button is state of the app model.
public struct Dialog: Widget, Hashable, Sendable {
    /// The title on the top border.
    public var title: String
    /// The message; wrapped at word boundaries, newlines kept.
    public var message: String
    /// The button labels, left to right.
    public var buttons: [String]
    /// The index of the selected button.
    public var selectedButton: Int
    /// The box's fill style.
    public var style: Style
    /// How the border looks.
    public var borderStyle: Style
    /// How unselected buttons look.
    public var buttonStyle: Style
    /// How the selected button looks.
    public var selectedButtonStyle: Style
    /// The widest the box gets, borders included.
    public var maxWidth: Int

    /// Creates a dialog.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - message: The message.
    ///   - buttons: The button labels.
    ///   - selectedButton: The selected button.
    ///   - style: The box fill style.
    ///   - borderStyle: How the border looks.
    ///   - buttonStyle: How unselected buttons look.
    ///   - selectedButtonStyle: How the selected button looks.
    ///   - maxWidth: The widest the box gets.
    public init(
        title: String,
        message: String,
        buttons: [String] = ["OK"],
        selectedButton: Int = 0,
        style: Style = .plain,
        borderStyle: Style = .plain,
        buttonStyle: Style = .plain,
        selectedButtonStyle: Style = Style(reverse: true),
        maxWidth: Int = 60
    ) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.selectedButton = selectedButton
        self.style = style
        self.borderStyle = borderStyle
        self.buttonStyle = buttonStyle
        self.selectedButtonStyle = selectedButtonStyle
        self.maxWidth = maxWidth
    }

    private var buttonLabels: [String] { buttons.map { "[ \($0) ]" } }

    private var buttonsWidth: Int {
        let labels = buttonLabels
        return labels.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * max(0, labels.count - 1)
    }

    /// The rectangle the box takes inside `area`.
    ///
    /// - Parameter area: The area the box is centered in (usually the whole screen).
    /// - Returns: The box, clamped to `area`.
    public func frame(in area: Rect) -> Rect {
        let messageWidth = message.split(whereSeparator: { $0.isNewline }).map { DisplayWidth.of($0) }.max() ?? 0
        let contentWidth = max(DisplayWidth.of(title) + 2, buttonsWidth, min(messageWidth, max(0, maxWidth - 4)))
        let boxWidth = min(area.width, contentWidth + 4)
        let lines = DisplayWidth.wrap(message, width: max(1, boxWidth - 4))
        let boxHeight = min(area.height, lines.count + (buttons.isEmpty ? 0 : 2) + 2)
        return area.centered(width: boxWidth, height: boxHeight)
    }

    /// Draws the box centered in `area`.
    ///
    /// - Parameters:
    ///   - area: The area to center in.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        let box = frame(in: area)
        guard !box.isEmpty else { return }
        Clear(style: style).render(in: box, buffer: &buffer)
        let block = Block(title: TextLine(title, style: borderStyle.patched(with: Style(bold: true))), borderStyle: borderStyle)
        block.render(in: box, buffer: &buffer)
        let inner = block.inner(box).inset(horizontal: 1, vertical: 0)
        guard !inner.isEmpty else { return }
        var messageArea = inner
        if !buttons.isEmpty {
            let split = inner.splitBottom(1)
            messageArea = split.rest.splitBottom(1).rest
            renderButtons(in: split.bottom, buffer: &buffer)
        }
        let lines = DisplayWidth.wrap(message, width: inner.width)
        for (row, line) in lines.prefix(messageArea.height).enumerated() {
            buffer.put(line, at: messageArea.row(row).origin, style: style, maxWidth: messageArea.width)
        }
    }

    private func renderButtons(in row: Rect, buffer: inout CellBuffer) {
        var spans: [Span] = []
        for (index, label) in buttonLabels.enumerated() {
            if index > 0 { spans.append(Span("  ", style: style)) }
            spans.append(Span(label, style: style.patched(with: index == selectedButton ? selectedButtonStyle : buttonStyle)))
        }
        TextLine(spans, alignment: .center).render(in: row, buffer: &buffer)
    }
}
