import Synchronization

/// Set once a ``ReceiverServer`` starts stopping; read by ``QuietOnStopLogHandler``.
///
/// Its value lives in a `Mutex`, so it is `Sendable`.
final class StoppingFlag: Sendable {
    private let value = Mutex(false)

    /// Whether stopping has begun.
    var isSet: Bool {
        value.withLock { $0 }
    }

    /// Marks that stopping has begun.
    func set() {
        value.withLock { $0 = true }
    }
}
