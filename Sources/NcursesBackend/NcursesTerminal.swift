import Glibc
import CNcursesw
import TerminalUI

/// The terminal, driven through ncurses: the only place Ferry touches the screen.
///
/// ```swift
/// try withTerminal { terminal in
///     var running = true
///     while running {
///         terminal.draw(view(state, size: terminal.size))
///         if let event = terminal.readKey(timeoutMilliseconds: 100) { ... }
///     }
/// }
/// ```
///
/// - **Input mode.** Raw mode: Ctrl-C, Ctrl-Z, Ctrl-\ and Ctrl-S/Ctrl-Q arrive as keys
///   (`.key(.ctrl("c"))`), never as signals or flow control; the app treats Ctrl-C as quit.
///   Escape is told from Alt-key after 25 ms (`ESCDELAY`).
/// - **Output.** ``draw(_:)`` paints only the cells that differ from the last frame, with
///   the wide-character API, then refreshes. Colors come from a lazily filled cache of color
///   pairs; under `NO_COLOR` or without color support only attributes are shown (see
///   ``colorMode``).
/// - **Restoring.** ``stop()`` (idempotent, also run by `deinit` and ``withTerminal(_:)``)
///   restores the terminal; so do SIGINT, SIGTERM, SIGHUP, SIGQUIT, crash signals and
///   `exit`, while the terminal is active.
/// - **Ending cleanly on a signal.** A terminal made with `defersTermination: true` does not
///   die on the first SIGINT, SIGTERM or SIGHUP: it records it in
///   ``pendingTerminationSignal`` and wakes ``readKey(timeoutMilliseconds:)``, so the loop can
///   save its state, stop and then end by the signal. A second such signal, or SIGQUIT,
///   restores and ends the process at once.
///
/// Threads: ncurses is not thread-safe. An instance **must** be used from one thread at a
/// time, and only one instance can be active in a process.
public final class NcursesTerminal {
    /// Whether curses is running.
    public private(set) var isActive = false
    /// How colors are shown; valid after ``start()``.
    public private(set) var colorMode: ColorMode = .monochrome
    /// Whether the locale's character set is UTF-8, so non-ASCII text can be shown
    /// (otherwise such graphemes show as `?`). The environment's locale is used, falling
    /// back to C.UTF-8 when it is not UTF-8.
    public private(set) var supportsUnicode = false

    var screen: OpaquePointer?
    var window: UnsafeMutablePointer<WINDOW>?
    /// The frame on the screen, or `nil` when the next draw must repaint everything.
    var previous: CellBuffer?
    var needsClear = true
    var cursorVisible = false
    var hasDefaultColors = false
    var colorPairs: [ColorPairKey: Int32] = [:]
    var nextColorPair: Int32 = 1
    /// Whether the terminal was given back to the shell (``suspend()``) and not yet taken back.
    var isSuspended = false
    let wakeup = EventWakeup()

    /// What wakes ``readKey(timeoutMilliseconds:)`` from other threads.
    public var waker: any TerminalWaking { wakeup }

    /// Whether the first termination signal is only recorded (see the type's discussion).
    public let defersTermination: Bool

    /// Creates a terminal; nothing happens until ``start()``.
    ///
    /// - Parameter defersTermination: Whether the first SIGINT, SIGTERM or SIGHUP is recorded in
    ///   ``pendingTerminationSignal`` for the caller to act on, instead of ending the process.
    public init(defersTermination: Bool = false) {
        self.defersTermination = defersTermination
    }

    /// The termination signal that arrived while this terminal deferred termination, or nil.
    /// Still readable after ``stop()``, so the caller can end by the signal once it is done.
    public var pendingTerminationSignal: Int32? {
        let signal = TerminalRestorer.pendingTermination.load(ordering: .acquiring)
        return signal == 0 ? nil : signal
    }

    deinit {
        stop()
    }

    /// Starts curses: checks the terminal, sets the locale, creates the screen with
    /// `newterm` (never `initscr`, which exits on failure), switches to raw mode without
    /// echo, enables keypad decoding, hides the cursor and sets up colors.
    ///
    /// Calling it again while active does nothing.
    ///
    /// - Throws: ``TerminalError`` when the process has no usable terminal or another
    ///   terminal is active.
    public func start() throws(TerminalError) {
        guard !isActive else { return }
        try TerminalCapability.check()
        guard TerminalRestorer.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw .alreadyActive
        }
        supportsUnicode = cncurses_setlocale_utf8() == 1
        TerminalRestorer.pendingTermination.store(0, ordering: .releasing)
        TerminalRestorer.defersTermination.store(defersTermination, ordering: .releasing)
        TerminalRestorer.install()
        guard let screen = cncurses_newterm_stdio() else {
            TerminalRestorer.uninstall()
            TerminalRestorer.defersTermination.store(false, ordering: .releasing)
            TerminalRestorer.claimed.store(false, ordering: .releasing)
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            throw .cannotInitializeScreen(term: term)
        }
        TerminalRestorer.needsRestore.store(true, ordering: .releasing)
        TerminalRestorer.suspendRequested.store(false, ordering: .releasing)
        TerminalRestorer.wakeDescriptor.store(wakeup.writeDescriptor, ordering: .releasing)
        TerminalRestorer.installJobControl()
        set_term(screen)
        self.screen = screen
        let window = cncurses_stdscr()
        self.window = window
        isActive = true

        raw()
        noecho()
        nonl()
        keypad(window, true)
        intrflush(window, false)
        set_escdelay(25)
        curs_set(0)
        cursorVisible = false
        setUpColors()
        previous = nil
        needsClear = true
    }

    /// Restores the terminal (`endwin`) and frees the screen. Safe to call more than once
    /// and when ``start()`` failed.
    public func stop() {
        guard isActive else { return }
        isActive = false
        if TerminalRestorer.needsRestore.exchange(false, ordering: .acquiringAndReleasing) {
            curs_set(1)
            endwin()
        }
        if let screen { delscreen(screen) }
        screen = nil
        window = nil
        previous = nil
        colorPairs = [:]
        nextColorPair = 1
        isSuspended = false
        TerminalRestorer.uninstall()
        TerminalRestorer.wakeDescriptor.store(-1, ordering: .releasing)
        TerminalRestorer.defersTermination.store(false, ordering: .releasing)
        TerminalRestorer.claimed.store(false, ordering: .releasing)
    }

    /// Gives the terminal back to the shell and stops the process group (Ctrl-Z); returns once
    /// the process is continued: the terminal is taken back by the next
    /// ``readKey(timeoutMilliseconds:)`` that finds the process in the foreground (which answers a
    /// resize, so the screen is drawn again whole); continued in the background, it stays the shell's.
    /// Does nothing when SIGTSTP was ignored at start (no job control to come back by).
    public func suspend() {
        TerminalRestorer.suspendRequested.store(false, ordering: .releasing)
        guard isActive, !isSuspended, !TerminalRestorer.stopIsIgnored.load(ordering: .acquiring) else { return }
        if TerminalRestorer.needsRestore.exchange(false, ordering: .acquiringAndReleasing) {
            curs_set(1)
            endwin()
        }
        isSuspended = true
        TerminalRestorer.stopProcessGroup()
    }

    /// Takes the terminal back after ``suspend()`` when the process is in the foreground again.
    ///
    /// - Returns: Whether the terminal is the interface's (again).
    func resumeIfForeground() -> Bool {
        guard isSuspended else { return true }
        let group = tcgetpgrp(STDIN_FILENO)
        guard group < 0 || group == getpgrp() else { return false }
        isSuspended = false
        TerminalRestorer.needsRestore.store(true, ordering: .releasing)
        cursorVisible = true
        invalidate()
        return true
    }

    /// The screen size in cells (zero when not active).
    public var size: Size {
        guard let window else { return .zero }
        var rows: Int32 = 0
        var columns: Int32 = 0
        cncurses_getmaxyx(window, &rows, &columns)
        return Size(width: Int(columns), height: Int(rows))
    }

    /// Makes the next ``draw(_:)`` clear the screen and repaint everything (for Ctrl-L, or
    /// after another program wrote to the terminal).
    public func invalidate() {
        previous = nil
        needsClear = true
    }

    /// After a signal handler restored the terminal and the process went on, curses
    /// resumes on the next refresh: owe `endwin` again, reinstall the handlers and repaint.
    func resumeAfterSignalIfNeeded() {
        guard isActive, !isSuspended, !TerminalRestorer.needsRestore.load(ordering: .acquiring) else { return }
        TerminalRestorer.needsRestore.store(true, ordering: .releasing)
        TerminalRestorer.install()
        invalidate()
    }

    private func setUpColors() {
        colorPairs = [:]
        nextColorPair = 1
        guard TerminalCapability.colorsWanted, has_colors() else {
            colorMode = .monochrome
            return
        }
        start_color()
        hasDefaultColors = use_default_colors() == OK
        colorMode = .color(hasBrightColors: cncurses_colors() >= 16)
    }
}
