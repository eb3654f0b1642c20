import TextFormat

/// The state of a one-line text field: the text as graphemes, the cursor, and a horizontal
/// scroll position. Pure: the app model owns one per field and feeds it keys.
///
/// The cursor is a grapheme index, `0…count` (`count` is after the last grapheme). Text
/// never holds control characters: they are dropped on insert. The scroll position is
/// kept stable between frames by ``scrollToCursor(width:masked:)``; ``viewport(width:masked:)``
/// works from it and always shows the cursor even when the model never calls that.
public struct LineEditor: Hashable, Sendable {
    /// The text, one element per grapheme cluster.
    public private(set) var graphemes: [Character]
    /// The cursor, as an index into ``graphemes`` (`graphemes.count` is the end).
    public private(set) var cursor: Int
    /// The index of the first grapheme shown when the text is wider than the field.
    public internal(set) var scrollOffset: Int

    /// Creates an editor with the cursor at the end of `text`.
    ///
    /// - Parameter text: The initial text.
    public init(text: String = "") {
        graphemes = Self.clean(Array(text))
        cursor = graphemes.count
        scrollOffset = 0
    }

    /// The text. Setting it moves the cursor to the end.
    public var text: String {
        get { String(graphemes) }
        set {
            graphemes = Self.clean(Array(newValue))
            cursor = graphemes.count
            scrollOffset = 0
        }
    }

    /// Whether the text is empty.
    public var isEmpty: Bool { graphemes.isEmpty }

    /// Inserts text at the cursor and moves the cursor past it. Control characters are
    /// dropped; a combining mark joins the grapheme before the cursor.
    ///
    /// - Parameter string: The text to insert (one typed character, or a paste).
    public mutating func insert<S: StringProtocol>(_ string: S) {
        guard !string.isEmpty else { return }
        let before = String(graphemes[..<cursor]) + string
        let after = String(graphemes[cursor...])
        let beforeGraphemes = Self.clean(Array(before))
        graphemes = Self.clean(Array(before + after))
        cursor = min(beforeGraphemes.count, graphemes.count)
    }

    /// Inserts one character at the cursor; see the string variant.
    ///
    /// - Parameter character: The character.
    public mutating func insert(_ character: Character) {
        insert(String(character))
    }

    /// Deletes the grapheme before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        graphemes.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the grapheme under the cursor.
    public mutating func deleteForward() {
        guard cursor < graphemes.count else { return }
        graphemes.remove(at: cursor)
    }

    /// Moves the cursor one grapheme left.
    public mutating func moveLeft() { cursor = max(0, cursor - 1) }

    /// Moves the cursor one grapheme right.
    public mutating func moveRight() { cursor = min(graphemes.count, cursor + 1) }

    /// Moves the cursor to the start.
    public mutating func moveToStart() { cursor = 0 }

    /// Moves the cursor to the end.
    public mutating func moveToEnd() { cursor = graphemes.count }

    /// Moves the cursor to the start of the word before it.
    public mutating func moveWordLeft() { cursor = wordStart(before: cursor) }

    /// Moves the cursor past the end of the word after it.
    public mutating func moveWordRight() {
        var index = cursor
        while index < graphemes.count && graphemes[index].isWhitespace { index += 1 }
        while index < graphemes.count && !graphemes[index].isWhitespace { index += 1 }
        cursor = index
    }

    /// Deletes from the start of the text to the cursor (Ctrl-U).
    public mutating func killToStart() {
        graphemes.removeSubrange(0..<cursor)
        cursor = 0
    }

    /// Deletes from the cursor to the end of the text (Ctrl-K).
    public mutating func killToEnd() {
        graphemes.removeSubrange(cursor..<graphemes.count)
    }

    /// Deletes the word before the cursor, and the spaces after it (Ctrl-W).
    public mutating func deleteWordBackward() {
        let start = wordStart(before: cursor)
        graphemes.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Applies an editing key.
    ///
    /// Printable characters insert; Backspace, Delete (Ctrl-D), ←/→ (Ctrl-B/Ctrl-F),
    /// Home/End (Ctrl-A/Ctrl-E), Ctrl-U, Ctrl-K, Ctrl-W and Alt-Backspace, Alt-B/Alt-F edit
    /// as in a shell. Everything else (Enter, Tab, Escape, ↑/↓, …) is left to the caller.
    ///
    /// - Parameter event: The key event.
    /// - Returns: `true` when the editor used the key.
    @discardableResult
    public mutating func handle(_ event: KeyEvent) -> Bool {
        switch event {
        case .key(.character(let c)): insert(c)
        case .key(.backspace): backspace()
        case .key(.delete), .key(.ctrl("d")): deleteForward()
        case .key(.left), .key(.ctrl("b")): moveLeft()
        case .key(.right), .key(.ctrl("f")): moveRight()
        case .key(.home), .key(.ctrl("a")): moveToStart()
        case .key(.end), .key(.ctrl("e")): moveToEnd()
        case .key(.ctrl("u")): killToStart()
        case .key(.ctrl("k")): killToEnd()
        case .key(.ctrl("w")), .alt(.backspace): deleteWordBackward()
        case .alt(.character("b")), .alt(.left): moveWordLeft()
        case .alt(.character("f")), .alt(.right): moveWordRight()
        default: return false
        }
        return true
    }

    private func wordStart(before index: Int) -> Int {
        var start = index
        while start > 0 && graphemes[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !graphemes[start - 1].isWhitespace { start -= 1 }
        return start
    }

    private static func clean(_ characters: [Character]) -> [Character] {
        characters.filter { DisplayWidth.of($0) > 0 }
    }
}
