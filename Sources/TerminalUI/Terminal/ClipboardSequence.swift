import FoundationEssentials

/// OSC 52, the escape sequence that asks a terminal (xterm, tmux with `set-clipboard on`, most
/// modern emulators, through ssh too) to put text on the clipboard: `ESC ] 52 ; c ; BASE64 BEL`.
public enum ClipboardSequence {
    /// The bytes that put `text` on the clipboard (selection `c`, the clipboard).
    ///
    /// - Parameter text: The text, sent as UTF-8.
    /// - Returns: The sequence.
    public static func copying(_ text: String) -> [UInt8] {
        Array("\u{1B}]52;c;".utf8) + Array(Data(text.utf8).base64EncodedString().utf8) + [0x07]
    }
}
