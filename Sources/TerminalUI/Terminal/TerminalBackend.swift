/// A terminal an interface loop draws on and reads keys from (as ratatui's `Backend`): the
/// ncurses terminal in the program, an in-memory one in tests.
///
/// Threads: an instance **must** be used from one thread at a time.
public protocol TerminalBackend: AnyObject {
    /// The screen size in cells.
    var size: Size { get }

    /// Shows a frame (a backend may paint only what changed since the last one).
    ///
    /// - Parameter buffer: The whole frame, as large as ``size``.
    func draw(_ buffer: CellBuffer)

    /// Waits for one input event.
    ///
    /// - Parameter timeoutMilliseconds: How long to wait; negative waits forever, 0 polls.
    /// - Returns: A key, or ``KeyEvent/resize(_:)`` when the terminal changed size; nil when
    ///   the time ran out or a termination signal is pending.
    func readKey(timeoutMilliseconds: Int) -> KeyEvent?

    /// The termination signal (SIGINT, SIGTERM, SIGHUP) the loop is asked to end by, or nil.
    var pendingTerminationSignal: Int32? { get }

    /// What wakes ``readKey(timeoutMilliseconds:)`` from other threads; Sendable, unlike the
    /// terminal.
    var waker: any TerminalWaking { get }

    /// Gives the terminal back to the shell and stops the process (Ctrl-Z, as shells do), then,
    /// once the process is continued in the foreground, takes the terminal back: the next
    /// ``readKey(timeoutMilliseconds:)`` answers ``KeyEvent/resize(_:)`` so the screen is drawn
    /// again whole. Continued in the background (`bg`), the terminal stays the shell's, nothing
    /// is drawn or read, and the process runs on until the shell brings it back (`fg`).
    func suspend()

    /// Puts text on the clipboard of the terminal (and of tmux, or the machine an ssh session
    /// comes from) with OSC 52 (``ClipboardSequence``); a terminal that does not take OSC 52
    /// ignores it.
    ///
    /// - Parameter text: The text.
    func copyToClipboard(_ text: String)
}
