import TextFormat

/// A one-row progress bar with an optional label after it: `█████▍    42%`.
///
/// The bar is drawn in eighths of a cell (`▏▎▍▌▋▊▉█`), or with `#` and `-` in ASCII mode
/// for terminals without those glyphs. When the area is too narrow for a bar and the
/// label, only the label is shown.
public struct ProgressBar: Widget, Hashable, Sendable {
    /// The completed fraction, 0 to 1 (values outside and NaN are clamped).
    public var fraction: Double
    /// The text after the bar (`"42%"`, `"1.2 MiB/s"`), or `nil`.
    public var label: String?
    /// How the filled part looks.
    public var style: Style
    /// How the empty part looks.
    public var emptyStyle: Style
    /// How the label looks.
    public var labelStyle: Style
    /// The character of the empty part in Unicode mode.
    public var emptySymbol: Character
    /// Whether to draw with `#` and `-` only.
    public var ascii: Bool

    /// Creates a progress bar.
    ///
    /// - Parameters:
    ///   - fraction: The completed fraction, 0 to 1.
    ///   - label: The text after the bar, or `nil`.
    ///   - style: The filled part's style.
    ///   - emptyStyle: The empty part's style.
    ///   - labelStyle: The label's style.
    ///   - emptySymbol: The empty part's character in Unicode mode.
    ///   - ascii: Whether to draw with `#` and `-` only.
    public init(
        fraction: Double,
        label: String? = nil,
        style: Style = .plain,
        emptyStyle: Style = .plain,
        labelStyle: Style = .plain,
        emptySymbol: Character = " ",
        ascii: Bool = false
    ) {
        self.fraction = fraction
        self.label = label
        self.style = style
        self.emptyStyle = emptyStyle
        self.labelStyle = labelStyle
        self.emptySymbol = emptySymbol
        self.ascii = ascii
    }

    /// The partial-cell glyphs, one to seven eighths.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The fraction clamped to 0…1, NaN as 0.
    public var clampedFraction: Double {
        guard fraction.isFinite else { return fraction == .infinity ? 1 : 0 }
        return min(1, max(0, fraction))
    }

    /// The bar's characters for `width` columns, without the label.
    ///
    /// - Parameter width: The number of columns of the bar.
    /// - Returns: The filled part (including a partial cell) and the empty part.
    public func barText(width: Int) -> (filled: String, empty: String) {
        guard width > 0 else { return ("", "") }
        if ascii {
            let full = Int((clampedFraction * Double(width)).rounded(.down))
            return (String(repeating: "#", count: full), String(repeating: "-", count: width - full))
        }
        let totalEighths = Int((clampedFraction * Double(width * 8)).rounded(.down))
        let full = totalEighths / 8
        let remainder = totalEighths % 8
        var filled = String(repeating: "█", count: full)
        if remainder > 0 { filled.append(Self.eighths[remainder - 1]) }
        let used = full + (remainder > 0 ? 1 : 0)
        return (filled, String(repeating: emptySymbol, count: width - used))
    }

    /// Draws the bar and the label on the first row of `area`.
    ///
    /// - Parameters:
    ///   - area: The rectangle; only its first row is used.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        let labelWidth = label.map { DisplayWidth.of($0) } ?? 0
        let barWidth = labelWidth > 0 ? row.width - labelWidth - 1 : row.width
        guard barWidth > 0 else {
            if let label { buffer.put(DisplayWidth.truncate(label, toWidth: row.width), at: row.origin, style: labelStyle) }
            return
        }
        buffer.fill(Rect(x: row.x, y: row.y, width: barWidth, height: 1), style: emptyStyle)
        let text = barText(width: barWidth)
        let filledWidth = buffer.put(text.filled, at: row.origin, style: style, maxWidth: barWidth)
        buffer.put(text.empty, at: Point(x: row.x + filledWidth, y: row.y), style: emptyStyle, maxWidth: barWidth - filledWidth)
        if let label, labelWidth > 0 {
            buffer.put(" ", at: Point(x: row.x + barWidth, y: row.y), style: labelStyle)
            buffer.put(label, at: Point(x: row.x + barWidth + 1, y: row.y), style: labelStyle, maxWidth: labelWidth)
        }
    }
}
