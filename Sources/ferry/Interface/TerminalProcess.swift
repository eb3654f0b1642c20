import FerryRuntime
import NcursesBackend

/// The interface's process side around the ncurses terminal: the termination signal the terminal
/// deferred, job control through it (it gives the screen back to the shell before the process
/// stops, and takes it back after), and the clipboard by OSC 52 after what it drew.
final class TerminalProcess: InterfaceProcess {
    private let terminal: NcursesTerminal
    private let clipboard = TerminalClipboard()

    /// Creates the process side of a started terminal.
    ///
    /// - Parameter terminal: The terminal.
    init(terminal: NcursesTerminal) {
        self.terminal = terminal
    }

    var pendingTerminationSignal: Int32? { terminal.pendingTerminationSignal }

    func suspend() {
        terminal.suspend()
    }

    func copyToClipboard(_ text: String) {
        clipboard.copy(text)
    }
}
