import FileSystem
import Multipart
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

/// The queue's side of a tus job: checkpoints kept and written; a resumption's bytes are where
/// the attempt starts, not bytes it sent, so the rate counts only what it sends.
@Suite("tus checkpoints in the queue")
struct TusQueueTests {
    static let file = FileSnapshot(path: "file1.bin", stamp: FileStamp(size: 1000, modificationTimeNanoseconds: 1, identity: FileIdentity(device: 1, inode: 1)))

    @Test("a checkpoint is kept and persisted; a resumption at 600 starts the rate there; a stale attempt's is ignored")
    func checkpoints() {
        var machine = UploadQueueStateMachine(configuration: .init(rateWindow: .seconds(2)))
        _ = machine.enqueue([Fixtures.job(1)])
        _ = machine.transferBegan(UploadJobID(1), attempt: 1, totalBytes: 1000, now: Fixtures.at(0), date: Fixtures.date(0))
        let created = TusCheckpoint(uploadURL: "http://h/files/a", offset: 0, file: Self.file, notes: [.created(url: "http://h/files/a")])
        let actions = machine.tusCheckpointed(UploadJobID(1), attempt: 1, checkpoint: created, now: Fixtures.at(10))
        #expect(ActionDescription.describe(actions) == ["persist 1 uploading"])
        #expect(machine.job(UploadJobID(1))?.tus == created)

        let resumed = TusCheckpoint(uploadURL: "http://h/files/a", offset: 600, file: Self.file,
                                    notes: created.notes + [.resumed(offset: 600, length: 1000)])
        _ = machine.tusCheckpointed(UploadJobID(1), attempt: 1, checkpoint: resumed, now: Fixtures.at(1000))
        #expect(machine.job(UploadJobID(1))?.progress.bytesSent == 600)
        _ = machine.transportProgressed(UploadJobID(1), attempt: 1, bytesSent: 600, now: Fixtures.at(1000))
        _ = machine.transportProgressed(UploadJobID(1), attempt: 1, bytesSent: 800, now: Fixtures.at(2000))
        let rate = machine.job(UploadJobID(1))?.progress.bytesPerSecond ?? 0
        #expect(rate > 150 && rate < 250, "200 B in a second, not 800: \(rate)")

        #expect(machine.tusCheckpointed(UploadJobID(1), attempt: 2, checkpoint: created, now: Fixtures.at(3000)).isEmpty)
        #expect(machine.job(UploadJobID(1))?.tus == resumed)
    }
}
