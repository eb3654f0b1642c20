import Synchronization
import Uploading

/// Upload events waiting for the interface loop: the manager's subscription appends from its
/// queue, the loop drains on its thread.
final class EventInbox: Sendable {
    private let events = Mutex<[UploadEvent]>([])

    /// Adds an event; callable from any thread.
    ///
    /// - Parameter event: The event.
    func append(_ event: UploadEvent) {
        events.withLock { $0.append(event) }
    }

    /// Takes every waiting event, oldest first.
    ///
    /// - Returns: The events.
    func drain() -> [UploadEvent] {
        events.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
