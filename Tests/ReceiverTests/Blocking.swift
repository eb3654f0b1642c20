import Foundation

/// Runs blocking work (sockets, child processes, big files) on a thread of its own, so tests
/// never block the Swift concurrency pool that the in-process receiver also runs on.
///
/// A new thread per call on purpose: on Linux, Dispatch's global and concurrent queues keep to
/// about one thread per core (2 here), so tests blocked on sockets there would starve each other.
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        onNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}

/// Starts `work` on a new thread and returns at once.
///
/// - Parameter work: What the thread runs.
func onNewThread(_ work: @escaping @Sendable () -> Void) {
    let thread = Thread(block: work)
    thread.stackSize = 1 << 20
    thread.start()
}
