import Glibc

/// A thread of its own for work that blocks (the terminal loop waits in `poll`), started without
/// Foundation's `Thread`.
enum DedicatedThread {
    private final class Work {
        let body: () -> Void

        init(body: @escaping () -> Void) {
            self.body = body
        }
    }

    /// Starts `body` on a new, detached thread.
    ///
    /// - Parameter body: The work; the thread ends when it returns.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            let work = Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
        pthread_detach(thread)
    }
}
