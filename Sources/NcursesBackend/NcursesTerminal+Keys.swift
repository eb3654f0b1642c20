import Glibc
import CNcursesw
import TerminalUI

extension NcursesTerminal {
    /// Waits for one input event.
    ///
    /// Characters (any Unicode) arrive as `.key(.character)`, control codes as named keys or
    /// `.key(.ctrl)` (see `Key(code:)`), keypad codes as arrows, Home/End, PgUp/PgDn,
    /// Insert/Delete, F1–F12 and Shift-Tab; Backspace arrives as `.key(.backspace)` whether
    /// the terminal sends DEL, BS or `KEY_BACKSPACE`. Escape followed within `ESCDELAY` by
    /// another key is that key with Alt. A terminal resize arrives as `.resize(newSize)`, and
    /// the next ``draw(_:)`` repaints everything; so does taking the terminal back after
    /// ``suspend()``.
    ///
    /// The wait polls the terminal and the ``waker``'s pipe together: a `wake()` from another
    /// thread, a resize, `fg` or a termination signal ends it early. A SIGTSTP from outside
    /// suspends here, on the terminal's thread. While the process runs in the background after
    /// a suspension, the terminal is neither read nor drawn on.
    ///
    /// - Parameter timeoutMilliseconds: How long to wait; negative waits forever, 0 polls.
    /// - Returns: The event, or `nil` when the time ran out, the wait was woken, an unknown key
    ///   came or a deferred termination signal is pending (see ``pendingTerminationSignal``).
    public func readKey(timeoutMilliseconds: Int) -> KeyEvent? {
        guard isActive, pendingTerminationSignal == nil else { return nil }
        if TerminalRestorer.suspendRequested.load(ordering: .acquiring) { suspend() }
        if isSuspended {
            if resumeIfForeground() { return .resize(size) }
            _ = wait(forTerminal: false, timeoutMilliseconds: timeoutMilliseconds)
            return resumeIfForeground() ? .resize(size) : nil
        }
        resumeAfterSignalIfNeeded()
        // Keys ncurses already holds (the rest of a burst it read while decoding) come first:
        // the terminal's descriptor would not say they are there.
        if let event = nextKey(timeoutMilliseconds: 0) { return event }
        guard timeoutMilliseconds != 0, wait(forTerminal: true, timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        return nextKey(timeoutMilliseconds: 0)
    }

    /// Waits until the terminal (if `forTerminal`) has input, the waker is woken, or the time
    /// runs out; resets the waker.
    ///
    /// - Returns: Whether the terminal has input.
    private func wait(forTerminal: Bool, timeoutMilliseconds: Int) -> Bool {
        var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        if forTerminal { descriptors.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: max(-1, timeoutMilliseconds)))
        wakeup.drain()
        guard ready > 0, forTerminal else { return false }
        return descriptors[1].revents != 0
    }

    /// Reads one event from ncurses, waiting at most `timeoutMilliseconds`.
    private func nextKey(timeoutMilliseconds: Int) -> KeyEvent? {
        guard let window else { return nil }
        wtimeout(window, Int32(clamping: max(-1, timeoutMilliseconds)))
        var code: UInt32 = 0
        let result = cncurses_wget_wch(window, &code)
        if result == cncurses_KEY_CODE_YES() {
            return decodeKeypad(Int32(bitPattern: code))
        }
        guard result == OK else { return nil }
        guard code == 27 else { return Key(code: code).map(KeyEvent.key) }
        // Escape: Alt-key when another key is already waiting.
        wtimeout(window, 0)
        var next: UInt32 = 0
        let nextResult = cncurses_wget_wch(window, &next)
        if nextResult == cncurses_KEY_CODE_YES() {
            if let event = decodeKeypad(Int32(bitPattern: next)), case .key(let key) = event {
                return .alt(key)
            }
            return .key(.escape)
        }
        guard nextResult == OK else { return .key(.escape) }
        if next == 27 {
            _ = cncurses_unget_wch(next)
            return .key(.escape)
        }
        return Key(code: next).map(KeyEvent.alt) ?? .key(.escape)
    }

    private func decodeKeypad(_ code: Int32) -> KeyEvent? {
        let keyF0 = cncurses_KEY_F0()
        if code > keyF0 && code <= keyF0 + 63 {
            return .key(.function(Int(code - keyF0)))
        }
        switch code {
        case KEY_RESIZE:
            invalidate()
            return .resize(size)
        case KEY_UP, KEY_SR: return .key(.up)
        case KEY_DOWN, KEY_SF: return .key(.down)
        case KEY_LEFT, KEY_SLEFT: return .key(.left)
        case KEY_RIGHT, KEY_SRIGHT: return .key(.right)
        case KEY_HOME, KEY_SHOME, KEY_A1: return .key(.home)
        case KEY_END, KEY_SEND, KEY_C1, KEY_LL: return .key(.end)
        case KEY_PPAGE, KEY_A3: return .key(.pageUp)
        case KEY_NPAGE, KEY_C3: return .key(.pageDown)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC, KEY_SDC: return .key(.delete)
        case KEY_IC: return .key(.insert)
        case KEY_ENTER: return .key(.enter)
        case KEY_BTAB: return .key(.backTab)
        default: return nil
        }
    }
}
