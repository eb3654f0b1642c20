extension Key {
    /// Decodes a character code as a terminal sends it in raw mode: control codes
    /// (0x00–0x1F, 0x7F) become named keys or ``ctrl(_:)``, anything else a
    /// ``character(_:)``.
    ///
    /// Mapping: 9 → Tab, 10 and 13 → Enter, 8 and 127 → Backspace, 27 → Escape, 0 →
    /// Ctrl-Space, 1–26 → Ctrl-a…Ctrl-z, 28–31 → Ctrl-\ Ctrl-] Ctrl-^ Ctrl-_.
    ///
    /// - Parameter code: The Unicode scalar value read from the terminal.
    /// - Returns: The key, or `nil` for a value that is not a Unicode scalar or is a C1
    ///   control character.
    public init?(code: UInt32) {
        switch code {
        case 9: self = .tab
        case 10, 13: self = .enter
        case 8, 127: self = .backspace
        case 27: self = .escape
        case 0: self = .ctrl(" ")
        case 1...26: self = .ctrl(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        case 28: self = .ctrl("\\")
        case 29: self = .ctrl("]")
        case 30: self = .ctrl("^")
        case 31: self = .ctrl("_")
        case 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            self = .character(Character(scalar))
        }
    }
}
