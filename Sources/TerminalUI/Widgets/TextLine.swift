import TextFormat

/// One line of styled text: a list of ``Span``s with an alignment.
///
/// Rendered on the first row of its area; text wider than the area is cut and ends in
/// ``ellipsis``.
public struct TextLine: Widget, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The pieces of text, left to right.
    public var spans: [Span]
    /// Where the text sits in a wider area.
    public var alignment: Alignment
    /// What marks a cut; the empty string cuts without a mark.
    public var ellipsis: String

    /// Creates a line from spans.
    ///
    /// - Parameters:
    ///   - spans: The pieces of text.
    ///   - alignment: Where the text sits in a wider area.
    ///   - ellipsis: What marks a cut.
    public init(_ spans: [Span], alignment: Alignment = .left, ellipsis: String = "…") {
        self.spans = spans
        self.alignment = alignment
        self.ellipsis = ellipsis
    }

    /// Creates a line of text in one style.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - style: How it looks.
    ///   - alignment: Where the text sits in a wider area.
    public init(_ text: String, style: Style = .plain, alignment: Alignment = .left) {
        self.init([Span(text, style: style)], alignment: alignment)
    }

    /// Creates a plain line from a literal.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The display width of the whole line.
    public var width: Int { spans.reduce(0) { $0 + $1.width } }

    /// The line with every span's style laid over `base` (see ``Style/patched(with:)``),
    /// so text drawn on a colored background keeps that background.
    ///
    /// - Parameter base: The style underneath, such as a row or panel background.
    /// - Returns: The restyled line.
    public func over(_ base: Style) -> TextLine {
        guard !base.isPlain else { return self }
        return TextLine(spans.map { Span($0.text, style: base.patched(with: $0.style)) }, alignment: alignment, ellipsis: ellipsis)
    }

    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    /// The line cut to `width` columns, ending in ``ellipsis`` (in the style of the span
    /// that was cut) when anything was cut.
    ///
    /// - Parameter width: The maximum number of columns.
    /// - Returns: A line at most `width` columns wide.
    public func truncated(toWidth width: Int) -> TextLine {
        guard width > 0 else { return TextLine([], alignment: alignment, ellipsis: ellipsis) }
        guard self.width > width else { return self }
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        let mark = ellipsisWidth <= width ? ellipsis : ""
        var room = width - (mark.isEmpty ? 0 : ellipsisWidth)
        var kept: [Span] = []
        var lastStyle = spans.first?.style ?? .plain
        for span in spans {
            lastStyle = span.style
            let spanWidth = span.width
            if spanWidth <= room {
                kept.append(span)
                room -= spanWidth
                continue
            }
            let piece = DisplayWidth.prefix(span.text, fitting: room)
            if !piece.text.isEmpty { kept.append(Span(piece.text, style: span.style)) }
            break
        }
        if !mark.isEmpty { kept.append(Span(mark, style: lastStyle)) }
        return TextLine(kept, alignment: alignment, ellipsis: ellipsis)
    }

    /// Draws the line on the first row of `area`, truncated and aligned. Cells right of
    /// the text are left as they are.
    ///
    /// - Parameters:
    ///   - area: The rectangle; only its first row is used.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let line = truncated(toWidth: area.width)
        let padding = alignment.leadingPadding(contentWidth: line.width, in: area.width)
        buffer.put(line.spans, at: Point(x: area.x + padding, y: area.y), maxWidth: area.width - padding)
    }
}
