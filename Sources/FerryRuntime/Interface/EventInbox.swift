import Synchronization
import UploadModel

/// Upload events waiting for the interface loop: the manager's subscription appends from its
/// queue, the loop drains on its thread.
///
/// Batches are kept as the manager handed them over, never copied into one growing array: after
/// 100,000 files are queued their events arrive faster than the model applies them, and each
/// copy would hold the old and the new array for a moment.
public final class EventInbox: Sendable {
    private let batches = Mutex<[[UploadEvent]]>([])
    private let onArrival = Mutex<(@Sendable () -> Void)?>(nil)

    /// Creates an empty inbox.
    public init() {}

    /// Sets what to call after each batch is added (the loop's waker), replacing any earlier.
    ///
    /// - Parameter wake: Called on the appending thread, outside the inbox's lock.
    public func notify(_ wake: @escaping @Sendable () -> Void) {
        onArrival.withLock { $0 = wake }
    }

    /// Adds a batch of events, in order, and wakes the loop; callable from any thread.
    ///
    /// - Parameter batch: The events.
    public func append(_ batch: [UploadEvent]) {
        guard !batch.isEmpty else { return }
        batches.withLock { $0.append(batch) }
        onArrival.withLock { $0 }?()
    }

    /// Takes every waiting batch, oldest first.
    ///
    /// - Returns: The batches, each as it was appended.
    public func drain() -> [[UploadEvent]] {
        batches.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
