/// Where lines of text go: standard output and standard error (``StandardStream``), or a
/// recording in tests.
public protocol TextOutput: Sendable {
    /// Writes text as UTF-8, every byte, in order.
    ///
    /// - Parameter text: What to write.
    /// - Throws: ``StandardStreamError`` when the reader has gone or the write fails.
    func write(_ text: String) throws(StandardStreamError)
}

extension TextOutput {
    /// Writes one diagnostic line (`text` and a newline), ignoring failure: there is nowhere
    /// left to report that standard error cannot be written.
    ///
    /// - Parameter text: The line, without its newline.
    public func writeLineIgnoringFailure(_ text: String) {
        try? write(text + "\n")
    }
}
