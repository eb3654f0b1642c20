import FerryHeadless
import Synchronization

/// A ``TextOutput`` that keeps what is written, or fails like a closed pipe once told to.
public final class FakeTextOutput: TextOutput {
    private let state = Mutex((text: "", isClosed: false, writes: 0))

    /// Creates an empty output.
    public init() {}

    /// Everything written so far.
    public var text: String { state.withLock { $0.text } }

    /// How many writes kept text so far.
    public var writeCount: Int { state.withLock { $0.writes } }

    /// The lines written so far (the text split at newlines, the last empty piece dropped).
    public var lines: [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Makes every later write fail with ``StandardStreamError/closed(stream:)``.
    public func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Keeps `text`, or throws once ``close()`` was called.
    ///
    /// - Parameter text: What to write.
    /// - Throws: ``StandardStreamError/closed(stream:)`` after ``close()``.
    public func write(_ text: String) throws(StandardStreamError) {
        let closed = state.withLock { state in
            if !state.isClosed {
                state.text += text
                state.writes += 1
            }
            return state.isClosed
        }
        if closed { throw .closed(stream: "fake output") }
    }
}
