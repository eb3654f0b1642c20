/// One input event from the terminal: a key (plain or with Alt) or a size change.
///
/// Events are `Hashable`, so key bindings can be kept in a dictionary keyed by event.
public enum KeyEvent: Hashable, Sendable, CustomStringConvertible {
    /// A key press.
    case key(Key)
    /// A key pressed with Alt (Meta), which terminals send as Escape followed by the key.
    case alt(Key)
    /// The terminal now has this size; the next frame should be drawn at it.
    case resize(Size)

    /// A printable character; shorthand for `.key(.character(c))`.
    ///
    /// - Parameter character: The character.
    /// - Returns: The event.
    public static func char(_ character: Character) -> KeyEvent {
        .key(.character(character))
    }

    /// The key, for key and Alt-key events.
    public var key: Key? {
        switch self {
        case .key(let key), .alt(let key): key
        case .resize: nil
        }
    }

    /// A short name for help text: `Ctrl-U`, `Alt-x`, `↑`, or `resize 80x24`.
    public var displayName: String {
        switch self {
        case .key(let key): key.displayName
        case .alt(let key): "Alt-" + key.displayName
        case .resize(let size): "resize \(size)"
        }
    }

    /// The same as ``displayName``.
    public var description: String { displayName }
}
