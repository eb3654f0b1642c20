/// Ends a terminal's wait for keys (``TerminalBackend/readKey(timeoutMilliseconds:)``) from
/// any thread: an upload event or a command's answer wakes the interface loop at once, so it
/// neither polls nor waits out its timeout.
public protocol TerminalWaking: Sendable {
    /// Makes the current or next wait for keys return now (with no key, if none is waiting).
    func wake()
}
