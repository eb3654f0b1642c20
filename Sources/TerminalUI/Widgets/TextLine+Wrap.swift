import TextFormat

extension TextLine {
    /// Word-wraps the line into lines of at most `width` columns, keeping span styles.
    ///
    /// Breaks at spaces (runs of spaces collapse to one at a break-free join); a word wider
    /// than `width` is broken between graphemes. The alignment carries over to every line.
    ///
    /// - Parameter width: The maximum number of columns per line.
    /// - Returns: The wrapped lines; one empty line for an empty input; none when `width`
    ///   is not positive.
    public func wrapped(toWidth width: Int) -> [TextLine] {
        guard width > 0 else { return [] }
        typealias Glyph = (character: Character, style: Style, width: Int)
        var words: [[Glyph]] = []
        var separators: [Style] = []
        var current: [Glyph] = []
        for span in spans {
            for character in span.text {
                if character == " " {
                    if !current.isEmpty {
                        words.append(current)
                        current = []
                        separators.append(span.style)
                    }
                } else {
                    let w = DisplayWidth.of(character)
                    if w > 0 { current.append((character, span.style, w)) }
                }
            }
        }
        if !current.isEmpty { words.append(current) }

        var result: [TextLine] = []
        var line: [Glyph] = []
        var lineWidth = 0
        func flush() {
            result.append(TextLine(Self.spans(from: line), alignment: alignment, ellipsis: ellipsis))
            line = []
            lineWidth = 0
        }
        for (index, word) in words.enumerated() {
            let wordWidth = word.reduce(0) { $0 + $1.width }
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                let separatorStyle = index - 1 < separators.count ? separators[index - 1] : .plain
                line.append((" ", separatorStyle, 1))
                line.append(contentsOf: word)
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 { flush() }
            for glyph in word {
                if lineWidth + glyph.width > width && lineWidth > 0 { flush() }
                line.append(glyph)
                lineWidth += glyph.width
            }
        }
        if !line.isEmpty || result.isEmpty { flush() }
        return result
    }

    private static func spans(from glyphs: [(character: Character, style: Style, width: Int)]) -> [Span] {
        var spans: [Span] = []
        for glyph in glyphs {
            if let last = spans.last, last.style == glyph.style {
                spans[spans.count - 1].text.append(glyph.character)
            } else {
                spans.append(Span(String(glyph.character), style: glyph.style))
            }
        }
        return spans
    }
}
