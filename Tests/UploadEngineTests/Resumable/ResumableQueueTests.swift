import Multipart
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

/// The queue's side of a resumable request: the upload's URL kept and written, a resumption's
/// offset where progress and the rate start, the checkpoint dropped once the server answered.
@Suite("Resumable requests in the queue")
struct ResumableQueueTests {
    @Test("the checkpoint is kept and persisted; a resumption at 600 starts the rate there; an answer drops the checkpoint")
    func checkpointAndRate() {
        var machine = UploadQueueStateMachine(configuration: .init(rateWindow: .seconds(2)))
        _ = machine.enqueue([Fixtures.job(1)])
        _ = machine.transferBegan(UploadJobID(1), attempt: 1, totalBytes: 1000, now: Fixtures.at(0), date: Fixtures.date(0))
        let checkpoint = ResumableCheckpoint(uploadURL: "http://h/resumable_upload/1", boundary: "b", bodyFingerprint: "f")
        let actions = machine.resumptionCheckpointed(UploadJobID(1), attempt: 1, checkpoint: checkpoint)
        #expect(ActionDescription.describe(actions) == ["persist 1 uploading"])
        #expect(machine.job(UploadJobID(1))?.resumption == checkpoint)
        #expect(machine.resumptionCheckpointed(UploadJobID(1), attempt: 2, checkpoint: checkpoint).isEmpty, "a stale attempt's")

        _ = machine.transportProgressed(UploadJobID(1), attempt: 1, bytesSent: 700, now: Fixtures.at(500))
        machine.resumableUploadResumed(UploadJobID(1), attempt: 1, at: 600, now: Fixtures.at(1000))
        #expect(machine.job(UploadJobID(1))?.progress.bytesSent == 600)
        _ = machine.transportProgressed(UploadJobID(1), attempt: 1, bytesSent: 800, now: Fixtures.at(2000))
        let rate = machine.job(UploadJobID(1))?.progress.bytesPerSecond ?? 0
        #expect(rate > 150 && rate < 250, "200 B in a second from the offset: \(rate)")

        _ = machine.transportCompleted(UploadJobID(1), attempt: 1, response: UploadResponse(status: 201), retryAfter: nil,
                                       now: Fixtures.at(3000))
        #expect(machine.job(UploadJobID(1))?.resumption == nil, "nothing is left to resume once the server answered")
    }
}
