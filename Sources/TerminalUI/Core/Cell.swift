import TextFormat

/// One terminal cell: a grapheme cluster with its style and display width.
///
/// A wide grapheme (CJK, most emoji) occupies two cells: a leading cell with `width == 2`
/// holding the grapheme, followed by a *continuation* cell (`width == 0`) that a backend
/// never paints. ``CellBuffer`` keeps the pair consistent when either half is overwritten.
public struct Cell: Hashable, Sendable {
    /// The grapheme shown in the cell; `" "` for blanks and continuation cells.
    public var content: Character
    /// How the cell looks.
    public var style: Style
    /// The display width: 1 or 2 for a leading cell, 0 for the continuation of a wide one.
    public var width: Int

    /// Creates a leading cell, measuring `content` with ``DisplayWidth``.
    ///
    /// A grapheme that takes no column (a control character, a lone combining mark) is
    /// stored as a blank, so a cell always advances the cursor.
    ///
    /// - Parameters:
    ///   - content: The grapheme.
    ///   - style: How it looks.
    public init(_ content: Character, style: Style = .plain) {
        let width = DisplayWidth.of(content)
        if width == 0 {
            self.content = " "
            self.width = 1
        } else {
            self.content = content
            self.width = width
        }
        self.style = style
    }

    private init(content: Character, style: Style, width: Int) {
        self.content = content
        self.style = style
        self.width = width
    }

    /// Whether this is the right half of a wide grapheme.
    public var isContinuation: Bool { width == 0 }

    /// A space in the plain style.
    public static let blank = Cell(content: " ", style: .plain, width: 1)

    /// A space in `style`.
    ///
    /// - Parameter style: The style of the blank (its background shows).
    /// - Returns: The blank cell.
    public static func blank(style: Style) -> Cell {
        Cell(content: " ", style: style, width: 1)
    }

    /// The right half of a wide grapheme.
    ///
    /// - Parameter style: The style of the wide grapheme it belongs to.
    /// - Returns: The continuation cell.
    public static func continuation(style: Style) -> Cell {
        Cell(content: " ", style: style, width: 0)
    }
}
