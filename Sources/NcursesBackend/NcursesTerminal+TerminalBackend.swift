import TerminalUI

/// The ncurses terminal is what the interface loop draws on in the program.
extension NcursesTerminal: TerminalBackend {}
