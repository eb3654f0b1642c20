import Foundation

/// Watches for a moment on a thread of its own and acts there at once: a test that must act when
/// something happens (kill a client past 40 % of its upload) cannot wait for a cooperative thread,
/// which other tests' blocking calls can hold for seconds on a two-core runner — by then the
/// upload is over.
public enum ThreadPoll {
    /// Checks `condition` every `interval` until it holds, then runs `action` on the same thread;
    /// gives up after `timeout`.
    ///
    /// - Parameters:
    ///   - timeout: How long to watch at most.
    ///   - interval: How often to check.
    ///   - condition: What to wait for (called on the watching thread).
    ///   - action: What to do the moment it holds (on the watching thread).
    /// - Returns: Whether the condition held (and `action` ran).
    public static func act(
        within timeout: Duration, every interval: Duration = .milliseconds(10),
        when condition: @escaping () -> Bool, _ action: @escaping () -> Void
    ) async -> Bool {
        let work = Work(condition: condition, action: action)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let deadline = ContinuousClock.now + timeout
                while !work.condition() {
                    guard ContinuousClock.now < deadline else {
                        continuation.resume(returning: false)
                        return
                    }
                    Thread.sleep(forTimeInterval: seconds)
                }
                work.action()
                continuation.resume(returning: true)
            }
        }
    }

    /// The closures, handed to the watching thread (the caller does not touch them meanwhile).
    private struct Work: @unchecked Sendable {
        let condition: () -> Bool
        let action: () -> Void
    }
}
