import Foundation
import Synchronization

/// Bytes a reader thread hands over from a pipe, read from the test's thread, and whether the
/// pipe has ended.
public final class LockedData: Sendable {
    private let state = Mutex((data: Data(), finished: false))

    /// Creates an empty buffer.
    public init() {}

    /// Everything appended so far.
    public var value: Data { state.withLock { $0.data } }

    /// Whether the pipe has ended (see ``finish()``).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Appends bytes.
    ///
    /// - Parameter bytes: The bytes.
    public func append(_ bytes: Data) {
        state.withLock { $0.data.append(bytes) }
    }

    /// Replaces the bytes.
    ///
    /// - Parameter bytes: The new bytes.
    public func set(_ bytes: Data) {
        state.withLock { $0.data = bytes }
    }

    /// Marks the pipe as ended.
    public func finish() {
        state.withLock { $0.finished = true }
    }
}
