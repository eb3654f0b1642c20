import Foundation
import Synchronization

/// Bytes appended from a pipe's handler thread and read from the test's thread.
final class LockedData: Sendable {
    private let data = Mutex<Data>(Data())

    /// Appends bytes.
    func append(_ bytes: Data) { data.withLock { $0.append(bytes) } }

    /// Everything appended so far.
    var value: Data { data.withLock { $0 } }
}
