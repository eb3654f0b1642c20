/// How a cell looks: foreground and background colors plus text attributes.
///
/// Styles are plain values; build them with the initializer or the chainable helpers:
/// `Style(foreground: .cyan).bolded()`. A monochrome backend (no colors, or `NO_COLOR` set)
/// shows only the attributes, so anything that must stay visible without color (the
/// selected row, say) should use ``reverse`` or ``bold`` rather than a background color.
public struct Style: Hashable, Sendable {
    /// The foreground (text) color.
    public var foreground: Color
    /// The background color.
    public var background: Color
    /// Bold (bright) text.
    public var bold: Bool
    /// Underlined text.
    public var underline: Bool
    /// Foreground and background swapped (reverse video).
    public var reverse: Bool
    /// Dim (faint) text.
    public var dim: Bool

    /// Creates a style.
    ///
    /// - Parameters:
    ///   - foreground: The text color; `.default` keeps the terminal's.
    ///   - background: The background color; `.default` keeps the terminal's.
    ///   - bold: Bold text.
    ///   - underline: Underlined text.
    ///   - reverse: Reverse video.
    ///   - dim: Dim text.
    public init(
        foreground: Color = .default,
        background: Color = .default,
        bold: Bool = false,
        underline: Bool = false,
        reverse: Bool = false,
        dim: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
        self.dim = dim
    }

    /// The terminal's default colors and no attributes.
    public static let plain = Style()

    /// Whether the style has no color and no attribute.
    public var isPlain: Bool { self == .plain }

    /// Returns a copy with another foreground color.
    ///
    /// - Parameter color: The new foreground color.
    /// - Returns: The changed style.
    public func fg(_ color: Color) -> Style {
        var copy = self
        copy.foreground = color
        return copy
    }

    /// Returns a copy with another background color.
    ///
    /// - Parameter color: The new background color.
    /// - Returns: The changed style.
    public func bg(_ color: Color) -> Style {
        var copy = self
        copy.background = color
        return copy
    }

    /// Returns a copy with bold switched on or off.
    ///
    /// - Parameter on: Whether the text is bold.
    /// - Returns: The changed style.
    public func bolded(_ on: Bool = true) -> Style {
        var copy = self
        copy.bold = on
        return copy
    }

    /// Returns a copy with underline switched on or off.
    ///
    /// - Parameter on: Whether the text is underlined.
    /// - Returns: The changed style.
    public func underlined(_ on: Bool = true) -> Style {
        var copy = self
        copy.underline = on
        return copy
    }

    /// Returns a copy with reverse video switched on or off.
    ///
    /// - Parameter on: Whether foreground and background are swapped.
    /// - Returns: The changed style.
    public func reversed(_ on: Bool = true) -> Style {
        var copy = self
        copy.reverse = on
        return copy
    }

    /// Returns a copy with dim switched on or off.
    ///
    /// - Parameter on: Whether the text is dim.
    /// - Returns: The changed style.
    public func dimmed(_ on: Bool = true) -> Style {
        var copy = self
        copy.dim = on
        return copy
    }

    /// Lays `overlay` over this style: its non-default colors replace these, and its
    /// attributes are added to these.
    ///
    /// Used for highlights: a selected row patches each span's style with the highlight
    /// style, so a span's own color survives unless the highlight sets one.
    ///
    /// - Parameter overlay: The style laid on top.
    /// - Returns: The combined style.
    public func patched(with overlay: Style) -> Style {
        Style(
            foreground: overlay.foreground == .default ? foreground : overlay.foreground,
            background: overlay.background == .default ? background : overlay.background,
            bold: bold || overlay.bold,
            underline: underline || overlay.underline,
            reverse: reverse || overlay.reverse,
            dim: dim || overlay.dim
        )
    }
}
