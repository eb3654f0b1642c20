/// A vertical list of one-line items with a highlighted cursor row.
///
/// The cursor and the scroll offset come from a ``ListScroll`` owned by the app model;
/// the list re-fits it to its own area height, so the cursor is visible even when the
/// model's idea of the viewport is stale.
public struct ListView: Widget, Hashable, Sendable {
    /// The items, one line each.
    public var items: [TextLine]
    /// The cursor and scroll offset.
    public var scroll: ListScroll
    /// The style rows are filled with, and that item text is laid over.
    public var style: Style
    /// The style laid over the cursor row (see ``Style/patched(with:)``).
    public var highlightStyle: Style
    /// A marker drawn before the cursor row (`"▶ "`, say); other rows are indented by its
    /// width. `nil` for none.
    public var highlightSymbol: String?
    /// Whether the cursor row is highlighted (off for an unfocused list, say).
    public var showsHighlight: Bool
    /// What is shown when there are no items, or `nil` for nothing.
    public var placeholder: TextLine?

    /// Creates a list.
    ///
    /// - Parameters:
    ///   - items: The items.
    ///   - scroll: The cursor and scroll offset.
    ///   - style: The row fill style.
    ///   - highlightStyle: The cursor row overlay.
    ///   - highlightSymbol: The cursor row marker, or `nil`.
    ///   - showsHighlight: Whether the cursor row is highlighted.
    ///   - placeholder: Shown when the list is empty.
    public init(
        items: [TextLine],
        scroll: ListScroll,
        style: Style = .plain,
        highlightStyle: Style = Style(reverse: true),
        highlightSymbol: String? = nil,
        showsHighlight: Bool = true,
        placeholder: TextLine? = nil
    ) {
        self.items = items
        self.scroll = scroll
        self.style = style
        self.highlightStyle = highlightStyle
        self.highlightSymbol = highlightSymbol
        self.showsHighlight = showsHighlight
        self.placeholder = placeholder
    }

    /// Draws the visible items, one per row.
    ///
    /// - Parameters:
    ///   - area: The rectangle.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: style)
        if items.isEmpty {
            placeholder?.render(in: area, buffer: &buffer)
            return
        }
        let fitted = scroll.fitted(viewportHeight: area.height, count: items.count)
        let symbolWidth = highlightSymbol.map { DisplayWidth.of($0) } ?? 0
        for (row, index) in fitted.visibleRange.enumerated() {
            let rowArea = area.row(row)
            let isCursor = showsHighlight && index == fitted.cursor
            if let highlightSymbol, isCursor {
                buffer.put(highlightSymbol, at: rowArea.origin, style: style, maxWidth: rowArea.width)
            }
            items[index].over(style).render(in: rowArea.inset(left: symbolWidth), buffer: &buffer)
            if isCursor { buffer.patchStyle(highlightStyle, in: rowArea) }
        }
    }
}
