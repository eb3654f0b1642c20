/// A terminal an interface loop draws on and reads keys from, and nothing else (as ratatui's
/// `Backend` only draws): the ncurses terminal in the program, an in-memory one in tests. What
/// the process does around it — a termination signal, job control, the clipboard — is the
/// runtime's (`FerryRuntime.InterfaceProcess`).
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

    /// What wakes ``readKey(timeoutMilliseconds:)`` from other threads; Sendable, unlike the
    /// terminal.
    var waker: any TerminalWaking { get }
}
