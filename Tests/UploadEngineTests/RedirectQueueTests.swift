import Foundation
import Multipart
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadJournal

/// The queue's handling of a 3xx the transport hands over (it was not followed): the job fails
/// with the redirect's reason at once, without automatic retries, keeping the response.
@Suite("Redirects in the queue")
struct RedirectQueueTests {
    @Test("a 302 fails the job naming the new URL; not retried; the attempt records the status")
    func movedIsNotRetried() throws {
        let transport = FakeTransport(replies: [.respond(status: 302, headers: [HeaderField(name: "Location", value: "/v2/upload")])])
        let harness = ManagerHarness(retry: RetryPolicy(maximumRetries: 3), transport: transport)
        let id = try harness.enqueue(1)[0]
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .failed)
        #expect(job.lastError == .redirectRefused(status: 302, reason: .moved(server: "127.0.0.1:9", location: "http://127.0.0.1:9/v2/upload")))
        #expect(job.response?.status == 302)
        #expect(job.attemptHistory.map(\.status) == [302])
        #expect(transport.calls.count == 1)
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test("the journal keeps a refused redirect typed: restored, it is still not retryable")
    func journaled() throws {
        let error = UploadError.redirectRefused(status: 307, reason: .leavesHTTPS(server: "a.test", location: "http://a.test/up"))
        let data = try JSONEncoder().encode(JournaledError(error))
        let restored = try JSONDecoder().decode(JournaledError.self, from: data).error
        #expect(restored == error)
        #expect(restored?.isRetryable == false)
    }
}
