import Foundation
import Synchronization

/// Bytes handed over from a Dispatch thread that reads a pipe, plus whether the pipe has ended.
final class DataBox: Sendable {
    private let state = Mutex((data: Data(), finished: false))

    /// Replaces the bytes.
    func set(_ newValue: Data) {
        state.withLock { $0.data = newValue }
    }

    /// Appends bytes.
    func append(_ more: Data) {
        state.withLock { $0.data += more }
    }

    /// Marks the pipe as ended.
    func finish() {
        state.withLock { $0.finished = true }
    }

    /// The bytes so far.
    func get() -> Data {
        state.withLock { $0.data }
    }

    /// Whether the pipe has ended.
    var isFinished: Bool {
        state.withLock { $0.finished }
    }
}
