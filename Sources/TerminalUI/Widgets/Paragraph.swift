import TextFormat

/// Several lines of styled text, optionally word-wrapped and scrolled.
public struct Paragraph: Widget, Hashable, Sendable {
    /// The lines.
    public var lines: [TextLine]
    /// Whether long lines wrap at word boundaries (otherwise they are truncated).
    public var wrap: Bool
    /// How many (wrapped) lines to skip at the top.
    public var scroll: Int
    /// The style the area is filled with first, and that the text is laid over; `nil`
    /// leaves the background as it is.
    public var background: Style?

    /// Creates a paragraph from lines.
    ///
    /// - Parameters:
    ///   - lines: The lines.
    ///   - wrap: Whether long lines wrap.
    ///   - scroll: Lines skipped at the top.
    ///   - background: The fill style, or `nil` for none.
    public init(_ lines: [TextLine], wrap: Bool = false, scroll: Int = 0, background: Style? = nil) {
        self.lines = lines
        self.wrap = wrap
        self.scroll = scroll
        self.background = background
    }

    /// Creates a paragraph from text; newlines start new lines.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - style: How it looks.
    ///   - alignment: Where each line sits.
    ///   - wrap: Whether long lines wrap.
    public init(_ text: String, style: Style = .plain, alignment: Alignment = .left, wrap: Bool = false) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline })
            .map { TextLine(String($0), style: style, alignment: alignment) }
        self.init(lines, wrap: wrap)
    }

    /// The lines as they are laid out at `width` columns (wrapped when ``wrap`` is on).
    ///
    /// - Parameter width: The width of the area.
    /// - Returns: The laid-out lines; their count is the height the paragraph needs.
    public func layoutLines(width: Int) -> [TextLine] {
        guard wrap else { return lines }
        return lines.flatMap { $0.wrapped(toWidth: width) }
    }

    /// Draws the lines from the top of `area`, one per row.
    ///
    /// - Parameters:
    ///   - area: The rectangle.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        if let background { buffer.fill(area, style: background) }
        let visible = layoutLines(width: area.width).dropFirst(max(0, scroll)).prefix(area.height)
        for (row, line) in visible.enumerated() {
            line.over(background ?? .plain).render(in: area.row(row), buffer: &buffer)
        }
    }
}
