import TextFormat

extension LineEditor {
    /// What a text field of a given width shows.
    public struct Viewport: Hashable, Sendable {
        /// The index of the first grapheme shown.
        public var start: Int
        /// The text shown (masked when asked), at most the field's width.
        public var text: String
        /// The column of the cursor inside the field.
        public var cursorColumn: Int
    }

    /// The part of the text a field `width` columns wide shows, scrolled so that the
    /// cursor (which needs a cell of its own at the end of the text) is visible.
    ///
    /// Starts from ``scrollOffset`` and moves it as little as needed; when the text from an
    /// earlier start fits, it scrolls back so no room is wasted.
    ///
    /// - Parameters:
    ///   - width: The field width in columns.
    ///   - masked: Whether every grapheme shows as `mask` (for passwords).
    ///   - mask: The character shown for each grapheme when masked.
    ///   - maskedFrom: The first grapheme masked (a secret header's value, its name shown).
    /// - Returns: The visible text and the cursor column.
    public func viewport(width: Int, masked: Bool = false, mask: Character = "•", maskedFrom: Int = 0) -> Viewport {
        guard width > 0 else { return Viewport(start: cursor, text: "", cursorColumn: 0) }
        let widths = graphemes.indices.map { masked && $0 >= maskedFrom ? DisplayWidth.of(mask) : DisplayWidth.of(graphemes[$0]) }
        var start = min(scrollOffset, cursor)
        var before = widths[start..<cursor].reduce(0, +)
        while start < cursor && before + 1 > width {
            before -= widths[start]
            start += 1
        }
        var rest = widths[start...].reduce(0, +)
        while start > 0 && rest + widths[start - 1] + 1 <= width {
            start -= 1
            rest += widths[start]
            before += widths[start]
        }
        var text = ""
        var used = 0
        for index in start..<graphemes.count {
            guard used + widths[index] <= width else { break }
            text.append(masked && index >= maskedFrom ? mask : graphemes[index])
            used += widths[index]
        }
        return Viewport(start: start, text: text, cursorColumn: before)
    }

    /// Stores the scroll position that ``viewport(width:masked:mask:)`` computes, so the
    /// next frame scrolls from there (call it after each edit with the field's width).
    ///
    /// - Parameters:
    ///   - width: The field width in columns.
    ///   - masked: Whether the field is masked.
    public mutating func scrollToCursor(width: Int, masked: Bool = false) {
        scrollOffset = viewport(width: width, masked: masked).start
    }
}
