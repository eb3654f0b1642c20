import Multipart
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

@Suite("Retry with another request")
struct RetryWithRequestTests {
    /// A machine whose one job failed 401 (not retried automatically).
    static func failedAfter401() -> (UploadQueueStateMachine, UploadJobID) {
        var machine = UploadQueueStateMachine(configuration: .init(concurrencyLimit: 1))
        let id = UploadJobID(1)
        _ = machine.enqueue([Fixtures.job(1)])
        _ = machine.transportCompleted(id, attempt: 1, response: UploadResponse(status: 401), retryAfter: nil, now: Fixtures.at(0))
        return (machine, id)
    }

    @Test("a retry with the form's request as it is now sends the job's files to the new URL and headers, and journals the spec")
    func retryTakesTheNewRequest() {
        var (machine, id) = Self.failedAfter401()
        #expect(machine.job(id)?.state == .failed)
        let request = UploadJobSpec(url: "http://fixed.test/upload", headers: [HeaderField(name: "Authorization", value: "Bearer new")],
                                    files: [QueuedFile(path: "ignored", size: 1, modificationTimeNanoseconds: 1)])
        let actions = machine.retry(id, request: request)
        let job = machine.job(id)
        #expect(job?.spec.url == "http://fixed.test/upload")
        #expect(job?.spec.headers == [HeaderField(name: "Authorization", value: "Bearer new")])
        #expect(job?.spec.files == Fixtures.job(1).spec.files)
        let journaledSpec = actions.contains { action in
            if case .persist(.update(let persisted, includingSpec: true)) = action { return persisted.spec.url == "http://fixed.test/upload" }
            return false
        }
        #expect(journaledSpec)
        #expect(actions.contains { if case .start = $0 { true } else { false } })
    }

    @Test("a plain retry keeps the request the job was queued with")
    func plainRetryKeepsTheRequest() {
        var (machine, id) = Self.failedAfter401()
        _ = machine.retry(id)
        #expect(machine.job(id)?.spec == Fixtures.job(1).spec)
    }
}
