/// Blanks its area: drawn under a popup so the screen behind does not show through.
public struct Clear: Widget, Hashable, Sendable {
    /// The style of the blanks.
    public var style: Style

    /// Creates a clear.
    ///
    /// - Parameter style: The style of the blanks.
    public init(style: Style = .plain) {
        self.style = style
    }

    /// Fills `area` with blanks.
    ///
    /// - Parameters:
    ///   - area: The rectangle.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        buffer.fill(area, style: style)
    }
}
