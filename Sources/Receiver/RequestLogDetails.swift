import Synchronization

/// What an upload handler found out about its request, for the request log: bytes read, the
/// fields and files kept, why it failed, and the status when no response could be sent.
///
/// One per request, shared between the handler and ``RequestLogMiddleware`` through the request
/// context; its state lives in a `Mutex`, so it is `Sendable`.
final class RequestLogDetails: Sendable {
    struct State {
        var bytes: Int64 = 0
        var record = UploadRecord()
        var error: String?
        /// Whether the request repeated a stored upload's `Idempotency-Key`.
        var replayed = false
        /// Set when the logged status differs from the response's (0: no response was sent).
        var statusOverride: Int?
    }

    private let state = Mutex(State())

    /// Reads or changes the details.
    ///
    /// - Parameter body: Runs with the state locked; it **must** not block.
    /// - Returns: What `body` returns.
    func withState<T>(_ body: (inout State) -> T) -> T {
        state.withLock { body(&$0) }
    }
}
