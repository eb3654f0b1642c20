extension DisplayWidth {
    /// The longest prefix of `string` that fits in `width` columns.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The number of columns available.
    /// - Returns: The prefix and its display width (which can be one less than `width`
    ///   when the next grapheme is wide).
    public static func prefix<S: StringProtocol>(_ string: S, fitting width: Int) -> (text: String, width: Int) {
        var used = 0
        var end = string.startIndex
        for index in string.indices {
            let w = of(string[index])
            if used + w > width { break }
            used += w
            end = string.index(after: index)
        }
        return (String(string[string.startIndex..<end]), used)
    }

    /// The longest suffix of `string` that fits in `width` columns.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The number of columns available.
    /// - Returns: The suffix and its display width.
    public static func suffix<S: StringProtocol>(_ string: S, fitting width: Int) -> (text: String, width: Int) {
        var used = 0
        var start = string.endIndex
        while start > string.startIndex {
            let previous = string.index(before: start)
            let w = of(string[previous])
            if used + w > width { break }
            used += w
            start = previous
        }
        return (String(string[start..<string.endIndex]), used)
    }

    /// Shortens `string` to at most `width` columns, ending it with `ellipsis` when cut.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The maximum number of columns.
    ///   - ellipsis: What marks the cut; dropped when even it does not fit.
    /// - Returns: `string` itself when it fits, otherwise a prefix plus `ellipsis`.
    public static func truncate<S: StringProtocol>(_ string: S, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(string) <= width { return String(string) }
        let ellipsisWidth = of(ellipsis)
        guard ellipsisWidth <= width else { return prefix(string, fitting: width).text }
        return prefix(string, fitting: width - ellipsisWidth).text + ellipsis
    }

    /// Shortens `string` to at most `width` columns by cutting out its middle, which keeps
    /// both the start and the extension of a long file name visible.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The maximum number of columns.
    ///   - ellipsis: What marks the cut.
    /// - Returns: `string` itself when it fits, otherwise head + `ellipsis` + tail.
    public static func truncateMiddle<S: StringProtocol>(_ string: S, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(string) <= width { return String(string) }
        let ellipsisWidth = of(ellipsis)
        guard ellipsisWidth < width else { return truncate(string, toWidth: width, ellipsis: ellipsis) }
        let available = width - ellipsisWidth
        let head = prefix(string, fitting: (available + 1) / 2)
        let tail = suffix(string, fitting: available - head.width)
        return head.text + ellipsis + tail.text
    }

    /// Pads `string` with spaces to `width` columns; wider text is returned unchanged.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The wanted number of columns.
    ///   - alignment: Where the text goes in the padded field.
    /// - Returns: The padded text.
    public static func pad<S: StringProtocol>(_ string: S, toWidth width: Int, alignment: Alignment = .left) -> String {
        let textWidth = of(string)
        guard textWidth < width else { return String(string) }
        let leading = alignment.leadingPadding(contentWidth: textWidth, in: width)
        let trailing = width - textWidth - leading
        return String(repeating: " ", count: leading) + string + String(repeating: " ", count: trailing)
    }

    /// Truncates (with `ellipsis`) and pads `string` to exactly `width` columns.
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The number of columns of the result.
    ///   - alignment: Where the text goes when it is narrower.
    ///   - ellipsis: What marks a cut.
    /// - Returns: Text whose display width is exactly `max(0, width)`.
    public static func fit<S: StringProtocol>(_ string: S, width: Int, alignment: Alignment = .left, ellipsis: String = "…") -> String {
        pad(truncate(string, toWidth: width, ellipsis: ellipsis), toWidth: width, alignment: alignment)
    }

    /// Word-wraps `string` into lines of at most `width` columns.
    ///
    /// Lines break at spaces; a word wider than `width` is broken between graphemes;
    /// newlines in `string` start new lines (an empty line stays empty).
    ///
    /// - Parameters:
    ///   - string: The text.
    ///   - width: The maximum number of columns per line.
    /// - Returns: The lines, without trailing spaces; empty when `width` is not positive.
    public static func wrap<S: StringProtocol>(_ string: S, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in string.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            let firstLine = lines.count
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var rest = Substring(word)
                var wordWidth = of(rest)
                if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                    line += " " + rest
                    lineWidth += 1 + wordWidth
                    continue
                }
                if lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    let piece = prefix(rest, fitting: width)
                    guard !piece.text.isEmpty else {
                        // A grapheme wider than the line: give it a line of its own.
                        let first = rest[rest.startIndex]
                        lines.append(String(first))
                        rest = rest.dropFirst()
                        wordWidth = of(rest)
                        continue
                    }
                    lines.append(piece.text)
                    rest = rest.dropFirst(piece.text.count)
                    wordWidth -= piece.width
                }
                line = String(rest)
                lineWidth = wordWidth
            }
            if !line.isEmpty || lines.count == firstLine { lines.append(line) }
        }
        return lines
    }
}
