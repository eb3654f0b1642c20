import Synchronization

/// Counts the upload files open at once, up to a limit (``ReceiverCapacity/maxUploads``): each
/// one a descriptor, the part file a ``PartFileWriter`` writes or the staged file a
/// ``TusPatchWriter`` writes. A slot is taken as such a file is opened and given back as it is
/// closed, so a request still sending its head or the start of its body holds none.
///
/// Shared by all requests of one server; the count lives in a `Mutex`, so it is `Sendable`.
final class UploadSlots: Sendable {
    /// The most upload files open at once.
    let limit: Int
    private let inUse = Mutex(0)

    /// Creates the slots.
    ///
    /// - Parameter limit: The most upload files open at once.
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
