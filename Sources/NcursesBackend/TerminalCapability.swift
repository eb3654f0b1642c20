import Glibc
import CNcursesw

/// Checks, before starting curses, that the process can run the full-screen interface.
public enum TerminalCapability {
    /// Fails with a clear error when standard input or output is not a terminal, `TERM` is
    /// unset, unknown to terminfo, or cannot address the cursor.
    ///
    /// Never starts curses and never exits the process (unlike `initscr`).
    ///
    /// - Throws: ``TerminalError`` saying what is wrong.
    public static func check() throws(TerminalError) {
        guard isatty(STDIN_FILENO) == 1 else { throw .notATerminal(stream: .standardInput) }
        guard isatty(STDOUT_FILENO) == 1 else { throw .notATerminal(stream: .standardOutput) }
        guard let raw = getenv("TERM"), raw.pointee != 0 else { throw .terminalTypeNotSet }
        let term = String(cString: raw)
        switch cncurses_terminfo_check(term, STDOUT_FILENO) {
        case 1: return
        case 0: throw .unusableTerminalType(term: term)
        case -2: throw .terminfoDatabaseMissing
        default: throw .unknownTerminalType(term: term)
        }
    }

    /// Whether colors are wanted: `false` when the `NO_COLOR` environment variable is set
    /// to a non-empty value (see no-color.org).
    public static var colorsWanted: Bool {
        guard let value = getenv("NO_COLOR") else { return true }
        return value.pointee == 0
    }
}
