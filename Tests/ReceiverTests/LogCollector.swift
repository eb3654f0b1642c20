import Receiver
import Synchronization

/// Collects the request log entries of an in-process receiver.
final class LogCollector: Sendable {
    private let entries = Mutex<[RequestLog]>([])

    /// Adds an entry (the receiver's `onRequestLogged`).
    func append(_ entry: RequestLog) {
        entries.withLock { $0.append(entry) }
    }

    /// Every entry so far.
    var all: [RequestLog] {
        entries.withLock { $0 }
    }

    /// Waits until an entry matches, polling for up to `timeout` seconds.
    ///
    /// - Parameters:
    ///   - timeout: Seconds to wait.
    ///   - predicate: What to look for.
    /// - Returns: The first matching entry, or `nil`.
    func waitFor(timeout: Double = 10, _ predicate: (RequestLog) -> Bool) async -> RequestLog? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            if let match = all.first(where: predicate) { return match }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return all.first(where: predicate)
    }
}
