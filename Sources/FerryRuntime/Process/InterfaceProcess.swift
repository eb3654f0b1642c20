/// What the interface loop asks of its process besides a terminal to draw on and read keys from
/// (`TerminalBackend`): the termination signal that asks it to end, job control (Ctrl-Z), and
/// the clipboard. The program's is `ferry`'s `TerminalProcess`; tests record them.
///
/// Threads: used on the loop's thread only.
public protocol InterfaceProcess: AnyObject {
    /// The termination signal (SIGINT, SIGTERM, SIGHUP) the loop is asked to end by, or nil.
    var pendingTerminationSignal: Int32? { get }

    /// Gives the terminal back to the shell and stops the process (Ctrl-Z, as shells do); once
    /// continued in the foreground, the terminal is taken back and the next key read is a resize,
    /// so the screen is drawn again whole. Continued in the background (`bg`), nothing is drawn or
    /// read, and the process runs on until the shell brings it back (`fg`).
    func suspend()

    /// Puts text on the clipboard of the terminal (and of tmux, or of the machine an ssh session
    /// comes from).
    ///
    /// - Parameter text: The text.
    func copyToClipboard(_ text: String)
}
