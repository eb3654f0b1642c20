/// The screen shown instead of the interface when the terminal is smaller than it needs:
/// `Terminal too small` / `need 60x16, have 40x10`, centered.
public struct TooSmall: Widget, Hashable, Sendable {
    /// The smallest size the interface works at.
    public var minimum: Size
    /// How the message looks.
    public var style: Style

    /// Creates the message.
    ///
    /// - Parameters:
    ///   - minimum: The smallest size the interface works at.
    ///   - style: How the message looks.
    public init(minimum: Size, style: Style = .plain) {
        self.minimum = minimum
        self.style = style
    }

    /// Clears `area` and draws the message centered in it (one line when only one fits).
    ///
    /// - Parameters:
    ///   - area: The whole screen.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: .plain)
        let lines: [String]
        if area.height >= 2 {
            lines = ["Terminal too small", "need \(minimum), have \(area.size)"]
        } else {
            lines = ["Too small: need \(minimum)"]
        }
        let top = area.y + (area.height - lines.count) / 2
        for (index, line) in lines.enumerated() {
            TextLine(line, style: style, alignment: .center)
                .render(in: Rect(x: area.x, y: top + index, width: area.width, height: 1), buffer: &buffer)
        }
    }
}
