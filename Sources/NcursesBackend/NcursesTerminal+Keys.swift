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
    /// the next ``draw(_:)`` repaints everything.
    ///
    /// - Parameter timeoutMilliseconds: How long to wait; negative waits forever, 0 polls.
    /// - Returns: The event, or `nil` when the time ran out, an unknown key came or a deferred
    ///   termination signal is pending (see ``pendingTerminationSignal``).
    public func readKey(timeoutMilliseconds: Int) -> KeyEvent? {
        guard isActive, let window, pendingTerminationSignal == nil else { return nil }
        resumeAfterSignalIfNeeded()
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
