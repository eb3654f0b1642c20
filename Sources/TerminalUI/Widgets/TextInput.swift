import TextFormat

/// A one-row text field drawing a ``LineEditor``: its visible window, a placeholder when
/// empty, masking for secrets, and the terminal cursor when focused.
public struct TextInput: Widget, Hashable, Sendable {
    /// The text and cursor.
    public var editor: LineEditor
    /// Shown (in ``placeholderStyle``) while the text is empty.
    public var placeholder: String
    /// Whether each grapheme shows as ``maskCharacter``.
    public var isMasked: Bool
    /// The mask character.
    public var maskCharacter: Character
    /// The first grapheme masked when ``isMasked`` (0: all of them).
    public var maskedFrom = 0
    /// Whether the field has focus: then it sets ``CellBuffer/cursor``.
    public var isFocused: Bool
    /// The style the field is filled with.
    public var style: Style
    /// How the placeholder looks.
    public var placeholderStyle: Style

    /// Creates a text field.
    ///
    /// - Parameters:
    ///   - editor: The text and cursor.
    ///   - placeholder: Shown while the text is empty.
    ///   - isMasked: Whether the text is masked.
    ///   - maskCharacter: The mask character.
    ///   - isFocused: Whether the field has focus.
    ///   - style: The field style.
    ///   - placeholderStyle: How the placeholder looks.
    public init(
        editor: LineEditor,
        placeholder: String = "",
        isMasked: Bool = false,
        maskCharacter: Character = "•",
        isFocused: Bool = true,
        style: Style = .plain,
        placeholderStyle: Style = Style(dim: true)
    ) {
        self.editor = editor
        self.placeholder = placeholder
        self.isMasked = isMasked
        self.maskCharacter = maskCharacter
        self.isFocused = isFocused
        self.style = style
        self.placeholderStyle = placeholderStyle
    }

    /// Draws the field on the first row of `area`.
    ///
    /// - Parameters:
    ///   - area: The rectangle; only its first row is used.
    ///   - buffer: The buffer to draw into.
    public func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: style)
        if editor.isEmpty && !placeholder.isEmpty {
            buffer.put(DisplayWidth.truncate(placeholder, toWidth: row.width), at: row.origin, style: style.patched(with: placeholderStyle))
        }
        let viewport = editor.viewport(width: row.width, masked: isMasked, mask: maskCharacter, maskedFrom: maskedFrom)
        buffer.put(viewport.text, at: row.origin, style: style, maxWidth: row.width)
        let cursor = Point(x: row.x + viewport.cursorColumn, y: row.y)
        if isFocused && row.intersection(buffer.area).contains(cursor) {
            buffer.cursor = cursor
        }
    }
}
