import Foundation
import Testing

@testable import Receiver

@Suite("tus upload state machine")
struct TusUploadStateMachineTests {
    private let start = Date(timeIntervalSince1970: 1_000_000)
    private let id = String(repeating: "a", count: 32)

    private func upload(length: Int64 = 100) -> TusUploadStateMachine {
        TusUploadStateMachine(id: id, length: length, metadata: "filename YQ==", now: start, expiresAfter: .seconds(60))
    }

    @Test("PATCHes at the offset advance it; the one reaching the length finishes; HEAD answers along the way")
    func patchesAdvance() {
        var machine = upload()
        #expect(machine.headRequested(now: start) == .answer(offset: 0, length: 100, metadata: "filename YQ==", expiresAt: start + 60))
        #expect(machine.patchRequested(offset: 0, bodyLength: 40, now: start) == .accept(remaining: 100))
        #expect(machine.patchEnded(storedBytes: 40, now: start + 10) == .stored(offset: 40))
        #expect(machine.info.expiresAt == start + 70, "each PATCH moves the expiry")
        #expect(machine.patchRequested(offset: 40, bodyLength: nil, now: start + 11) == .accept(remaining: 60))
        #expect(machine.patchEnded(storedBytes: 60, now: start + 12) == .finish)
        let file = UploadedFile(field: "/files/" + id, filename: "a", savedAs: "a", size: 100, contentType: "x", sha256: "00")
        machine.finished(file)
        #expect(machine.info.file == file)
        #expect(machine.headRequested(now: start + 13) == .answer(offset: 100, length: 100, metadata: "filename YQ==", expiresAt: nil))
        #expect(machine.patchRequested(offset: 100, bodyLength: 0, now: start + 14) == .alreadyComplete(offset: 100))
    }

    @Test("a wrong offset is 409, a body past the length 413, a second PATCH or a DELETE in flight 423")
    func refusals() {
        var machine = upload()
        #expect(machine.patchRequested(offset: 5, bodyLength: 1, now: start) == .refuse(.offsetMismatch(expected: 0, received: 5)))
        #expect(
            machine.patchRequested(offset: 0, bodyLength: 101, now: start)
                == .refuse(.exceedsLength(length: 100, offset: 0, bodyLength: 101)))
        #expect(machine.patchRequested(offset: 0, bodyLength: 10, now: start) == .accept(remaining: 100))
        #expect(machine.patchRequested(offset: 0, bodyLength: 10, now: start) == .refuse(.uploadBusy(id: id)))
        #expect(machine.terminateRequested() == .refuse(.uploadBusy(id: id)))
        #expect(machine.sweep(now: start + 3600) == .keep, "never swept while a PATCH writes")
        #expect(
            [409, 413, 423] == [
                ReceiverError.TusRefusalReason.offsetMismatch(expected: 0, received: 5),
                .exceedsLength(length: 1, offset: 0, bodyLength: 2), .uploadBusy(id: id),
            ].map(\.httpStatus))
    }

    @Test("a discarded PATCH (checksum, full disk) leaves the offset; a failed move lets an empty PATCH at the end retry")
    func discardAndRetry() {
        var machine = upload(length: 10)
        _ = machine.patchRequested(offset: 0, bodyLength: 10, now: start)
        machine.patchDiscarded()
        #expect(machine.info.offset == 0)
        #expect(machine.patchRequested(offset: 0, bodyLength: 10, now: start) == .accept(remaining: 10))
        #expect(machine.patchEnded(storedBytes: 10, now: start) == .finish)
        #expect(machine.patchRequested(offset: 10, bodyLength: 0, now: start) == .refuse(.uploadBusy(id: id)))
        machine.finishFailed()
        #expect(machine.isCompleteButNotMoved)
        #expect(machine.patchRequested(offset: 10, bodyLength: 0, now: start) == .accept(remaining: 0))
        #expect(machine.patchEnded(storedBytes: 0, now: start) == .finish)
    }

    @Test("an unfinished upload past Upload-Expires answers 410; the sweep removes it once; a finished one is forgotten")
    func expiry() {
        var machine = upload()
        #expect(machine.sweep(now: start + 59) == .keep)
        #expect(machine.headRequested(now: start + 60) == .refuse(.uploadExpired(id: id)))
        #expect(machine.patchRequested(offset: 0, bodyLength: 1, now: start + 60) == .refuse(.uploadExpired(id: id)))
        #expect(machine.sweep(now: start + 60) == .expire)
        #expect(machine.sweep(now: start + 61) == .keep, "its files are removed once")
        #expect(machine.headRequested(now: start) == .refuse(.uploadExpired(id: id)), "expired for good")
        #expect(machine.terminateRequested() == .remove)
        #expect(ReceiverError.TusRefusalReason.uploadExpired(id: id).httpStatus == 410)

        var finished = upload(length: 1)
        _ = finished.patchRequested(offset: 0, bodyLength: 1, now: start)
        _ = finished.patchEnded(storedBytes: 1, now: start)
        finished.finished(UploadedFile(field: "", filename: "", savedAs: "a", size: 1, contentType: "", sha256: ""))
        #expect(finished.sweep(now: start + 60) == .forget)
    }

    @Test("a restored upload goes on from its offset; a restored finished one stays finished")
    func restore() {
        var info = upload().info
        info.offset = 30
        var machine = TusUploadStateMachine(restoring: info, expiresAfter: .seconds(60))
        #expect(machine.patchRequested(offset: 30, bodyLength: 70, now: start) == .accept(remaining: 70))
        info.offset = 100
        info.file = UploadedFile(field: "", filename: "", savedAs: "a", size: 100, contentType: "", sha256: "")
        var finished = TusUploadStateMachine(restoring: info, expiresAfter: .seconds(60))
        #expect(!finished.isCompleteButNotMoved)
        #expect(finished.patchRequested(offset: 100, bodyLength: nil, now: start) == .alreadyComplete(offset: 100))
    }
}
