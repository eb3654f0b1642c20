/// Why the terminal interface could not start.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A standard stream of the process that must be a terminal.
    public enum Stream: String, Hashable, Sendable {
        /// File descriptor 0.
        case standardInput = "standard input"
        /// File descriptor 1.
        case standardOutput = "standard output"
    }

    /// Standard input or output is not a terminal (redirected, piped, or run by a
    /// service).
    case notATerminal(stream: Stream)
    /// The `TERM` environment variable is unset or empty.
    case terminalTypeNotSet
    /// `TERM` names a terminal type that the terminfo database does not know.
    case unknownTerminalType(term: String)
    /// `TERM` names a terminal that cannot move the cursor (such as `dumb`).
    case unusableTerminalType(term: String)
    /// No terminfo database was found at all.
    case terminfoDatabaseMissing
    /// ncurses could not set up the screen (`newterm` failed).
    case cannotInitializeScreen(term: String)
    /// Another ``NcursesTerminal`` is already running in this process.
    case alreadyActive

    /// What happened and what to do about it.
    public var description: String {
        switch self {
        case .notATerminal(let stream):
            "The interface needs a terminal, but \(stream.rawValue) is not one. Run ferry in a terminal, or use `ferry send` for scripts."
        case .terminalTypeNotSet:
            "The TERM environment variable is not set, so the terminal type is unknown. Set TERM (for example TERM=xterm-256color)."
        case .unknownTerminalType(let term):
            "The terminal type \"\(term)\" is not in the terminfo database. Install its terminfo entry or set TERM to a known type such as xterm-256color."
        case .unusableTerminalType(let term):
            "The terminal type \"\(term)\" cannot position the cursor, which the interface needs. Use a full terminal or `ferry send`."
        case .terminfoDatabaseMissing:
            "No terminfo database was found. Install the ncurses-base package (or set TERMINFO)."
        case .cannotInitializeScreen(let term):
            "ncurses could not initialize the terminal \"\(term)\". Check TERM, or use `ferry send`."
        case .alreadyActive:
            "The terminal interface is already running in this process."
        }
    }
}
