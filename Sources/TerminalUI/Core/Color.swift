/// A terminal color: the terminal's own default, one of the eight basic ANSI colors, or one
/// of their bright variants.
///
/// Backends map `.default` to the terminal's default foreground or background (so a
/// transparent or themed terminal keeps its look) and bright variants to palette entries
/// 8–15, falling back to the basic color where the terminal has only eight colors.
public enum Color: Hashable, Sendable, CaseIterable {
    /// The terminal's default foreground or background.
    case `default`
    /// ANSI color 0.
    case black
    /// ANSI color 1.
    case red
    /// ANSI color 2.
    case green
    /// ANSI color 3.
    case yellow
    /// ANSI color 4.
    case blue
    /// ANSI color 5.
    case magenta
    /// ANSI color 6.
    case cyan
    /// ANSI color 7 (light gray on most terminals).
    case white
    /// ANSI color 8 (dark gray on most terminals).
    case brightBlack
    /// ANSI color 9.
    case brightRed
    /// ANSI color 10.
    case brightGreen
    /// ANSI color 11.
    case brightYellow
    /// ANSI color 12.
    case brightBlue
    /// ANSI color 13.
    case brightMagenta
    /// ANSI color 14.
    case brightCyan
    /// ANSI color 15.
    case brightWhite

    /// Dark gray: another name for ``brightBlack``.
    public static let gray = Color.brightBlack

    /// The ANSI palette index (0–15), or `nil` for ``default``.
    public var ansiIndex: Int? {
        switch self {
        case .default: nil
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        }
    }

    /// Whether this is one of the bright variants (palette entries 8–15).
    public var isBright: Bool {
        guard let index = ansiIndex else { return false }
        return index >= 8
    }

    /// The basic counterpart of a bright color (`.brightRed` → `.red`); other colors are
    /// returned unchanged. Used on terminals that have only eight colors.
    public var basic: Color {
        switch self {
        case .brightBlack: .black
        case .brightRed: .red
        case .brightGreen: .green
        case .brightYellow: .yellow
        case .brightBlue: .blue
        case .brightMagenta: .magenta
        case .brightCyan: .cyan
        case .brightWhite: .white
        default: self
        }
    }
}
