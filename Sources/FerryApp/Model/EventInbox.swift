import Synchronization
import Uploading

/// Upload events waiting for the interface loop: the manager's subscription appends from its
/// queue, the loop drains on its thread.
public final class EventInbox: Sendable {
    private let events = Mutex<[UploadEvent]>([])

    /// Creates an empty inbox.
    public init() {}

    /// Adds events, in order; callable from any thread.
    ///
    /// - Parameter batch: The events.
    public func append(_ batch: [UploadEvent]) {
        events.withLock { $0.append(contentsOf: batch) }
    }

    /// Takes every waiting event, oldest first.
    ///
    /// - Returns: The events.
    public func drain() -> [UploadEvent] {
        events.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
