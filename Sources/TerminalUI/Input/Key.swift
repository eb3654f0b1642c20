/// A key on the keyboard, as decoded by a backend.
///
/// Printable input, Unicode included, arrives as ``character(_:)`` (space is
/// `.character(" ")`). Control combinations arrive as ``ctrl(_:)`` with a lowercase letter,
/// except those that have their own case: Tab (Ctrl-I), Enter (Ctrl-M, Ctrl-J), Backspace
/// (Ctrl-H, DEL) and Escape (Ctrl-[). With the backend in raw mode, Ctrl-C arrives as
/// `.ctrl("c")` rather than as a signal.
public enum Key: Hashable, Sendable {
    /// A printable grapheme.
    case character(Character)
    /// Ctrl plus a lowercase letter `a`–`z`, or one of `" "` (Ctrl-Space, Ctrl-@), `"\\"`,
    /// `"]"`, `"^"`, `"_"`.
    case ctrl(Character)
    /// Enter / Return.
    case enter
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace (whether the terminal sends DEL, BS or its keypad code).
    case backspace
    /// Delete (forward).
    case delete
    /// Insert.
    case insert
    /// Escape, pressed alone.
    case escape
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// A function key, F1 to F12 (or beyond, where the terminal has them).
    case function(Int)

    /// A short name for help bars and help screens: `q`, `Space`, `Ctrl-C`, `↑`, `PgDn`,
    /// `Shift-Tab`, `F5`.
    public var displayName: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .ctrl(" "): "Ctrl-Space"
        case .ctrl(let c): "Ctrl-" + String(c).uppercased()
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .insert: "Ins"
        case .escape: "Esc"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        }
    }
}
