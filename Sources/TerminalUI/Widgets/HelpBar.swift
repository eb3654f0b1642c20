import TextFormat

/// A one-row list of key bindings, `q Quit  ↑↓ Move  Enter Open`, laid out left to right.
///
/// When the row is too narrow for every item in full, the bar first uses the items' short
/// descriptions, then leaves out whole items, least important first (among equals, the
/// rightmost first); ``Priority/essential`` items stay. Only when even those do not fit are the
/// items drawn in order until the width runs out.
public struct HelpBar: Widget, Hashable, Sendable {
    /// How much an item is worth keeping when the row is narrow.
    public enum Priority: Int, Comparable, Hashable, Sendable {
        /// Left out first.
        case low
        /// Left out after the low ones.
        case normal
        /// Left out only after every normal and low item.
        case high
        /// Never left out (help, quit).
        case essential

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One binding: the key's name and what it does.
    public struct Item: Hashable, Sendable {
        /// The key, as shown (`"q"`, `"Ctrl-U"`, `"↑↓"`).
        public var key: String
        /// What the key does.
        public var description: String
        /// A shorter description used when the row is narrow; `nil` when there is none.
        public var shortDescription: String?
        /// Whether the binding works now; disabled ones are drawn in ``HelpBar/disabledStyle``.
        public var isEnabled: Bool
        /// How much the item is worth keeping on a narrow row.
        public var priority: Priority

        /// Creates an item.
        ///
        /// - Parameters:
        ///   - key: The key, as shown.
        ///   - description: What the key does.
        ///   - shortDescription: A shorter description for narrow rows.
        ///   - isEnabled: Whether the binding works now.
        ///   - priority: How much the item is worth keeping on a narrow row.
        public init(key: String, description: String, shortDescription: String? = nil, isEnabled: Bool = true,
                    priority: Priority = .normal) {
            self.key = key
            self.description = description
            self.shortDescription = shortDescription
            self.isEnabled = isEnabled
            self.priority = priority
        }

        /// The item with its short description, if it has one.
        var shortened: Item {
            var item = self
            item.description = shortDescription ?? description
            return item
        }

        /// The columns the item takes.
        var width: Int {
            DisplayWidth.of(key) + (description.isEmpty ? 0 : 1 + DisplayWidth.of(description))
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
        for (index, item) in fitted(toWidth: row.width).enumerated() {
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

    /// The items to draw in `width` columns: all in full if they fit, else all shortened, else
    /// shortened without the least important ones until the rest fits (essential items stay).
    ///
    /// - Parameter width: The row's width.
    /// - Returns: The items, in their order.
    func fitted(toWidth width: Int) -> [Item] {
        let separatorWidth = DisplayWidth.of(separator)
        func totalWidth(_ items: [Item]) -> Int {
            items.reduce(0) { $0 + $1.width } + max(0, items.count - 1) * separatorWidth
        }
        if totalWidth(items) <= width { return items }
        var kept = items.map(\.shortened)
        while totalWidth(kept) > width {
            let droppable = kept.indices.filter { kept[$0].priority != .essential }
            guard let victim = droppable.min(by: { kept[$0].priority < kept[$1].priority
                    || (kept[$0].priority == kept[$1].priority && $0 > $1) }) else { break }
            kept.remove(at: victim)
        }
        return kept
    }
}
