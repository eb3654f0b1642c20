import Glibc
import TerminalUI

/// The clipboard reached through the terminal: the OSC 52 sequence (`ClipboardSequence`) written to
/// the terminal after what was drawn. It moves no cursor and draws nothing, so the screen the
/// terminal backend believes in stays true; a terminal that does not take OSC 52 ignores it.
public struct TerminalClipboard: Sendable {
    private let descriptor: Int32

    /// Creates the clipboard of the terminal on `descriptor`.
    ///
    /// - Parameter descriptor: The terminal's output (standard output by default).
    public init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Puts `text` on the clipboard, after everything buffered for the terminal so far.
    ///
    /// - Parameter text: The text.
    public func copy(_ text: String) {
        fflush(nil)
        let bytes = ClipboardSequence.copying(text)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return }
            written += result
        }
    }
}
