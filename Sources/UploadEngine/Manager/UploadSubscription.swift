/// A callback subscription to an `UploadManager`'s events; it lasts until `cancel()`.
public final class UploadSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops delivery. Events already dispatched to the subscriber's queue may still arrive.
    public func cancel() {
        onCancel()
    }
}
