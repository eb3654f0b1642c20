/// A one-row list of key bindings, `q Quit  ↑↓ Move  Enter Open`, laid out left to right
/// until the width runs out (an item that does not fit whole is left out with all after it).
public struct HelpBar: Widget, Hashable, Sendable {
    /// One binding: the key's name and what it does.
    public struct Item: Hashable, Sendable {
        /// The key, as shown (`"q"`, `"Ctrl-U"`, `"↑↓"`).
        public var key: String
        /// What the key does.
        public var description: String
        /// Whether the binding works now; disabled ones are drawn in ``HelpBar/disabledStyle``.
        public var isEnabled: Bool

        /// Creates an item.
        ///
        /// - Parameters:
        ///   - key: The key, as shown.
        ///   - description: What the key does.
        ///   - isEnabled: Whether the binding works now.
        public init(key: String, description: String, isEnabled: Bool = true) {
            self.key = key
            self.description = description
            self.isEnabled = isEnabled
        }
    }

    /// The bindings, most important first.
    public var items: [Item]
    /// How keys look.
    public var keyStyle: Style
    /// How descriptions look.
    public var descriptionStyle: Style
    /// How disabled items look (key and description).
    public var disabledStyle: Style
    /// The style the row is filled with.
    public var style: Style
    /// What goes between items.
    public var separator: String

    /// Creates a help bar.
    ///
    /// - Parameters:
    ///   - items: The bindings, most important first.
    ///   - keyStyle: How keys look.
    ///   - descriptionStyle: How descriptions look.
    ///   - disabledStyle: How disabled items look.
    ///   - style: The row fill style.
    ///   - separator: What goes between items.
    public init(
        items: [Item],
        keyStyle: Style = Style(bold: true),
        descriptionStyle: Style = .plain,
        disabledStyle: Style = Style(dim: true),
        style: Style = .plain,
        separator: String = "  "
    ) {
        self.items = items
        self.keyStyle = keyStyle
        self.descriptionStyle = descriptionStyle
        self.disabledStyle = disabledStyle
        self.style = style
        self.separator = separator
    }

    /// Draws as many whole items as fit on the first row of `area`.
    ///
    /// - Parameters:
    ///   - area: The rectangle; only its first row is used.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: style)
        let separatorWidth = DisplayWidth.of(separator)
        var x = row.x
        for (index, item) in items.enumerated() {
            let keyStyle = item.isEnabled ? keyStyle : disabledStyle.patched(with: Style(bold: keyStyle.bold))
            let descriptionStyle = item.isEnabled ? descriptionStyle : disabledStyle
            var spans = [Span(item.key, style: style.patched(with: keyStyle))]
            if !item.description.isEmpty {
                spans.append(Span(" " + item.description, style: style.patched(with: descriptionStyle)))
            }
            let itemWidth = spans.reduce(0) { $0 + $1.width }
            let lead = index == 0 ? 0 : separatorWidth
            guard x + lead + itemWidth <= row.maxX else { break }
            if lead > 0 { buffer.put(separator, at: Point(x: x, y: row.y), style: style) }
            x += lead
            x += buffer.put(spans, at: Point(x: x, y: row.y), maxWidth: row.maxX - x)
        }
    }
}
