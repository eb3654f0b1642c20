import NIOPosix

extension NIOThreadPool {
    /// Runs blocking work on the pool and waits for it, even in a cancelled task: the cleanup
    /// after a cancelled request (close, unlink, truncate) must still happen, and `runIfActive`
    /// skips work of cancelled tasks.
    ///
    /// - Parameter body: The blocking work.
    /// - Returns: What `body` returned.
    func runBlocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            // The work item gets `.cancelled` only when the pool itself has stopped; it runs anyway.
            submit { _ in continuation.resume(returning: body()) }
        }
    }
}
