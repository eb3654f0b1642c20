import HTTPUploadTransport
import UploadModel

extension HTTPTransport {
    /// The transport's census once it satisfies `condition`, or as it is after `timeout` (closes
    /// are reported by the channels' close futures, a moment after the queue went idle).
    ///
    /// - Parameters:
    ///   - timeout: How long to wait at most.
    ///   - condition: What the census should come to.
    /// - Returns: The census (check it: it does not satisfy `condition` when the time ran out).
    func census(within timeout: Duration, until condition: (ConnectionPoolCensus) -> Bool) async throws -> ConnectionPoolCensus {
        let deadline = ContinuousClock.now + timeout
        while !condition(connectionCensus), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return connectionCensus
    }
}
