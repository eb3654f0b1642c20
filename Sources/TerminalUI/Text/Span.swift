import TextFormat

/// A piece of text in one style: the unit that ``TextLine`` and the widgets are built from.
public struct Span: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The text; it should hold no control characters (see
    /// ``DisplayWidth/escapingControls(_:)``).
    public var text: String
    /// How the text looks.
    public var style: Style

    /// Creates a span.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - style: How it looks.
    public init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// Creates a plain span from a literal.
    ///
    /// - Parameter value: The text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The display width of the text.
    public var width: Int { DisplayWidth.of(text) }
}
