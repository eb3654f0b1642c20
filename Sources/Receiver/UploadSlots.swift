import Synchronization

/// Counts the uploads being received, up to a limit (``ReceiverCapacity/maxUploads``).
///
/// Shared by all requests of one server; the count lives in a `Mutex`, so it is `Sendable`.
final class UploadSlots: Sendable {
    /// The most uploads at once.
    let limit: Int
    private let inUse = Mutex(0)

    /// Creates the slots.
    ///
    /// - Parameter limit: The most uploads at once.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a slot is free now (a hint: another request may take it first).
    var hasRoom: Bool {
        inUse.withLock { $0 < limit }
    }

    /// Takes a slot if one is free; the caller **must** call ``release()`` once when it took one.
    ///
    /// - Returns: `true` when a slot was taken.
    func acquire() -> Bool {
        inUse.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a slot back.
    func release() {
        inUse.withLock { $0 -= 1 }
    }
}
