/// The line drawing characters of a ``Block``'s border.
public enum BorderType: Hashable, Sendable {
    /// `┌─┐│└┘`
    case plain
    /// `╭─╮│╰╯`
    case rounded
    /// `╔═╗║╚╝`
    case double
    /// `┏━┓┃┗┛`
    case thick
    /// `+-+|++`, for terminals without line drawing glyphs.
    case ascii

    /// The characters: top-left, top-right, bottom-left, bottom-right, horizontal, vertical.
    public var symbols: (topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character, horizontal: Character, vertical: Character) {
        switch self {
        case .plain: ("┌", "┐", "└", "┘", "─", "│")
        case .rounded: ("╭", "╮", "╰", "╯", "─", "│")
        case .double: ("╔", "╗", "╚", "╝", "═", "║")
        case .thick: ("┏", "┓", "┗", "┛", "━", "┃")
        case .ascii: ("+", "+", "+", "+", "-", "|")
        }
    }
}
