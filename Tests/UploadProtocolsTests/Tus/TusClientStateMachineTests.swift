import FileSystem
import Foundation
import Multipart
import Testing
@testable import UploadModel
@testable import UploadProtocols

/// Every transition of `TusClientStateMachine`, without I/O: answers in, requests out.
@Suite("TusClientStateMachine")
struct TusClientStateMachineTests {
    static let creation = try! UploadTarget("http://127.0.0.1:1080/files/")
    static let upload = try! UploadTarget("http://127.0.0.1:1080/files/abc")

    static func plan(size: Int64 = 10, chunk: Int64 = 4, uploadURL: UploadTarget? = nil, dataInCreation: Bool = false) -> TusUploadPlan {
        TusUploadPlan(creationURL: creation,
                      file: FileSnapshot(path: "/tmp/a.bin", stamp: FileStamp(size: size, modificationTimeNanoseconds: 1, identity: FileIdentity(device: 1, inode: 1))),
                      metadata: "filename YS5iaW4=", chunkSize: chunk, sendsDataInCreation: dataInCreation, uploadURL: uploadURL)
    }

    static func response(_ status: Int, _ headers: [(String, String)] = []) -> UploadResponse {
        UploadResponse(status: status, headers: headers.map { HeaderField(name: $0.0, value: $0.1) })
    }

    static let options = response(204, [("Tus-Resumable", "1.0.0"), ("Tus-Version", "1.0.0"),
                                        ("Tus-Extension", "creation,termination,checksum"),
                                        ("Tus-Checksum-Algorithm", "md5,sha1,sha256")])

    /// The request an action sends (failing the test for any other action).
    static func request(_ action: TusClientStateMachine.Action, sourceLocation: SourceLocation = #_sourceLocation) -> TusRequest? {
        guard case let .send(request) = action else {
            Issue.record("expected a request, got \(action)", sourceLocation: sourceLocation)
            return nil
        }
        return request
    }

    static func header(_ request: TusRequest?, _ name: String) -> String? {
        request?.headers.first { $0.name == name }?.value
    }

    @Test("a new upload: OPTIONS, POST with Upload-Length and metadata, PATCHes of a chunk each at the confirmed offset, finish")
    func newUpload() throws {
        var machine = TusClientStateMachine(plan: Self.plan())
        let discover = Self.request(machine.start())
        #expect(discover?.method == "OPTIONS" && discover?.target == Self.creation && discover?.headers == [])
        let create = Self.request(machine.answered(Self.options))
        #expect(create?.method == "POST" && create?.range == 0..<0)
        #expect(Self.header(create, "Tus-Resumable") == "1.0.0")
        #expect(Self.header(create, "Upload-Length") == "10")
        #expect(Self.header(create, "Upload-Metadata") == "filename YS5iaW4=")
        let first = Self.request(machine.answered(Self.response(201, [("Location", "/files/abc")])))
        #expect(machine.uploadURL == Self.upload && machine.offset == 0)
        #expect(machine.notes == [.created(url: Self.upload.url)])
        #expect(first?.method == "PATCH" && first?.target == Self.upload && first?.range == 0..<4)
        #expect(Self.header(first, "Upload-Offset") == "0" && Self.header(first, "Tus-Resumable") == "1.0.0")
        #expect(first?.checksum == .sha256)
        let second = Self.request(machine.answered(Self.response(204, [("Upload-Offset", "4")])))
        #expect(second?.range == 4..<8 && Self.header(second, "Upload-Offset") == "4" && machine.offset == 4)
        let last = Self.request(machine.answered(Self.response(204, [("Upload-Offset", "8")])))
        #expect(last?.range == 8..<10)
        let done = Self.response(204, [("Upload-Offset", "10")])
        #expect(machine.answered(done) == .finish(done))
        #expect(machine.offset == 10)
    }

    @Test("a 507 to a PATCH removes the upload (DELETE) and ends with the 507; without termination, or if the DELETE fails, it ends all the same")
    func fullServerDeletes() {
        let full = Self.response(507, [("Content-Type", "text/plain")])
        var machine = TusClientStateMachine(plan: Self.plan())
        _ = machine.start()
        _ = machine.answered(Self.options)
        _ = machine.answered(Self.response(201, [("Location", "/files/abc")]))
        let delete = Self.request(machine.answered(full))
        #expect(delete?.method == "DELETE" && delete?.target == Self.upload && Self.header(delete, "Tus-Resumable") == "1.0.0")
        #expect(machine.answered(Self.response(204)) == .finish(full))

        var failing = TusClientStateMachine(plan: Self.plan())
        _ = failing.start()
        _ = failing.answered(Self.options)
        _ = failing.answered(Self.response(201, [("Location", "/files/abc")]))
        _ = failing.answered(full)
        #expect(failing.failed(.transferFailed(reason: .connectionLost(message: "reset"))) == .finish(full))

        var without = TusClientStateMachine(plan: Self.plan())
        _ = without.start()
        _ = without.answered(Self.response(204, [("Tus-Resumable", "1.0.0"), ("Tus-Version", "1.0.0"), ("Tus-Extension", "creation")]))
        _ = without.answered(Self.response(201, [("Location", "/files/abc")]))
        #expect(without.answered(full) == .finish(full), "no termination offered: nothing to ask")
    }

    @Test("--no-checksum: no chunk carries a checksum, though the server offers them")
    func withoutChecksums() {
        var plan = Self.plan()
        plan.sendsChecksums = false
        var machine = TusClientStateMachine(plan: plan)
        _ = machine.start()
        _ = machine.answered(Self.options)
        let first = Self.request(machine.answered(Self.response(201, [("Location", "/files/abc")])))
        #expect(first?.range == 0..<4 && first?.checksum == nil)
        let second = Self.request(machine.answered(Self.response(204, [("Upload-Offset", "4")])))
        #expect(second?.range == 4..<8 && second?.checksum == nil)
    }

    @Test("by default the creation POST carries no data, even where creation-with-upload is offered: PATCHes from 0")
    func noDataInCreationByDefault() {
        var machine = TusClientStateMachine(plan: Self.plan())
        _ = machine.start()
        let create = Self.request(machine.answered(Self.response(204, [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation,creation-with-upload")])))
        #expect(create?.method == "POST" && create?.range == 0..<0)
        let first = Self.request(machine.answered(Self.response(201, [("Location", "http://other:9/u/1")])))
        #expect(first?.method == "PATCH" && first?.range == 0..<4)
    }

    @Test("creation-with-upload (asked for) carries the first chunk in the POST; its Upload-Offset is confirmed")
    func creationWithUpload() {
        var machine = TusClientStateMachine(plan: Self.plan(dataInCreation: true))
        _ = machine.start()
        let create = Self.request(machine.answered(Self.response(204, [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation,creation-with-upload")])))
        #expect(create?.method == "POST" && create?.range == 0..<4)
        let next = Self.request(machine.answered(Self.response(201, [("Location", "http://other:9/u/1"), ("Upload-Offset", "4")])))
        #expect(machine.offset == 4 && machine.uploadURL?.url == "http://other:9/u/1")
        #expect(next?.range == 4..<8 && next?.checksum == nil)
    }

    @Test("creation-with-upload answered without Upload-Offset asks HEAD")
    func creationWithUploadWithoutOffset() {
        var machine = TusClientStateMachine(plan: Self.plan(dataInCreation: true))
        _ = machine.start()
        _ = machine.answered(Self.response(200, [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation-with-upload,creation")]))
        let head = Self.request(machine.answered(Self.response(201, [("Location", "/files/abc")])))
        #expect(head?.method == "HEAD" && head?.target == Self.upload)
    }

    @Test("an empty file: created, then finished without a PATCH")
    func emptyFile() {
        var machine = TusClientStateMachine(plan: Self.plan(size: 0))
        _ = machine.start()
        let create = Self.request(machine.answered(Self.options))
        #expect(Self.header(create, "Upload-Length") == "0")
        let created = Self.response(201, [("Location", "/files/abc")])
        #expect(machine.answered(created) == .finish(created))
    }

    @Test("a known upload URL is asked HEAD after OPTIONS and goes on from the server's offset, noted")
    func resume() {
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        let head = Self.request(machine.answered(Self.options))
        #expect(head?.method == "HEAD" && head?.target == Self.upload && head?.range == 0..<0)
        let patch = Self.request(machine.answered(Self.response(200, [("Upload-Offset", "6"), ("Upload-Length", "10")])))
        #expect(patch?.range == 6..<10 && Self.header(patch, "Upload-Offset") == "6")
        #expect(machine.notes == [.resumed(offset: 6, length: 10)])
        #expect(machine.notes[0].description == "resumed at 60 % (byte 6 of 10)")
    }

    @Test("an upload the server holds whole finishes on HEAD without sending a byte")
    func completeOnHead() {
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        let head = Self.response(200, [("Upload-Offset", "10"), ("Upload-Length", "10")])
        #expect(machine.answered(head) == .finish(head))
    }

    @Test("404 or 410 on HEAD or PATCH starts a new upload once, noted; a second time fails", arguments: [404, 410])
    func vanished(status: Int) {
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        let create = Self.request(machine.answered(Self.response(status)))
        #expect(create?.method == "POST" && machine.uploadURL == nil && machine.offset == 0)
        #expect(machine.notes == [.restarted(url: Self.upload.url, status: status)])
        _ = machine.answered(Self.response(201, [("Location", "/files/new")]))
        #expect(machine.answered(Self.response(status))
            == .fail(.tusFailed(reason: .uploadVanished(url: "http://127.0.0.1:1080/files/new", status: status))))
    }

    @Test("409 or 460 on a PATCH asks HEAD; three in a row fail", arguments: [409, 460])
    func refusedChunks(status: Int) {
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        _ = machine.answered(Self.response(200, [("Upload-Offset", "2")]))
        for _ in 1..<TusClientStateMachine.maximumRefusals {
            #expect(Self.request(machine.answered(Self.response(status)))?.method == "HEAD")
            #expect(Self.request(machine.answered(Self.response(200, [("Upload-Offset", "2")])))?.range == 2..<6)
        }
        #expect(machine.answered(Self.response(status))
            == .fail(.tusFailed(reason: .chunksRefused(count: 3, offset: 2, status: status))))
    }

    @Test("423 Locked: HEAD and DELETE are asked again later (250 ms, doubling to 2 s), a PATCH is followed by HEAD; 20 in a row end it")
    func locked() {
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        let head = Self.request(machine.answered(Self.response(200, [("Upload-Offset", "0")])))
        #expect(head?.method == "PATCH")
        guard case let .sendAfter(again, delay) = machine.answered(Self.response(423)) else {
            Issue.record("no wait")
            return
        }
        #expect(again.method == "HEAD" && delay == TusClientStateMachine.lockedRetryDelay)
        var delays: [Duration] = [delay]
        for _ in 2...TusClientStateMachine.maximumLockedWaits {
            guard case .sendAfter(let request, let delay) = machine.answered(Self.response(423)) else {
                Issue.record("no wait")
                return
            }
            #expect(request.method == "HEAD")
            delays.append(delay)
        }
        #expect(delays.prefix(5) == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2)])
        let locked = Self.response(423)
        #expect(machine.answered(locked) == .finish(locked))

        var cancelling = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = cancelling.start()
        _ = cancelling.answered(Self.options)
        _ = cancelling.cancel(discardingUpload: true)
        guard case let .sendAfter(delete, _) = cancelling.answered(Self.response(423)) else {
            Issue.record("no wait")
            return
        }
        #expect(delete.method == "DELETE")
        #expect(cancelling.answered(Self.response(204)) == .stop)
    }

    @Test("a confirmed chunk resets the refusal count")
    func refusalsReset() {
        var machine = TusClientStateMachine(plan: Self.plan(size: 100, uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        _ = machine.answered(Self.response(200, [("Upload-Offset", "0")]))
        for round in 0..<4 {
            _ = machine.answered(Self.response(409))
            _ = machine.answered(Self.response(200, [("Upload-Offset", String(round * 4))]))
            _ = machine.answered(Self.response(409))
            _ = machine.answered(Self.response(200, [("Upload-Offset", String(round * 4))]))
            #expect(Self.request(machine.answered(Self.response(204, [("Upload-Offset", String(round * 4 + 4))])))?.range
                == Int64(round * 4 + 4)..<Int64(round * 4 + 8))
        }
    }

    @Test("a server that keeps part of a chunk is sent the rest from its offset")
    func partialChunk() {
        var machine = TusClientStateMachine(plan: Self.plan())
        _ = machine.start()
        _ = machine.answered(Self.options)
        _ = machine.answered(Self.response(201, [("Location", "/files/abc")]))
        #expect(Self.request(machine.answered(Self.response(204, [("Upload-Offset", "3")])))?.range == 3..<7)
    }

    @Test("impossible offsets fail: none, not moving, beyond the chunk, beyond the file on HEAD")
    func impossibleOffsets() {
        func patched(_ offset: String?) -> TusClientStateMachine.Action {
            var machine = TusClientStateMachine(plan: Self.plan())
            _ = machine.start()
            _ = machine.answered(Self.options)
            _ = machine.answered(Self.response(201, [("Location", "/files/abc")]))
            return machine.answered(Self.response(204, offset.map { [("Upload-Offset", $0)] } ?? []))
        }
        #expect(patched(nil) == .fail(.tusFailed(reason: .offsetInvalid(request: "PATCH", offset: nil, expected: 0, length: 10))))
        #expect(patched("0") == .fail(.tusFailed(reason: .offsetInvalid(request: "PATCH", offset: 0, expected: 0, length: 10))))
        #expect(patched("5") == .fail(.tusFailed(reason: .offsetInvalid(request: "PATCH", offset: 5, expected: 0, length: 10))))
        #expect(patched("x") == .fail(.tusFailed(reason: .offsetInvalid(request: "PATCH", offset: nil, expected: 0, length: 10))))
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        #expect(machine.answered(Self.response(200, [("Upload-Offset", "11")]))
            == .fail(.tusFailed(reason: .offsetInvalid(request: "HEAD", offset: 11, expected: 0, length: 10))))
    }

    @Test("an upload URL of another length is another file's")
    func lengthMismatch() {
        var machine = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = machine.start()
        _ = machine.answered(Self.options)
        #expect(machine.answered(Self.response(200, [("Upload-Offset", "1"), ("Upload-Length", "11")]))
            == .fail(.tusFailed(reason: .lengthMismatch(url: Self.upload.url, serverLength: 11, fileSize: 10))))
    }

    @Test("discovery: not tus, another version, no creation, too large — each fails before a byte is sent")
    func discoveryFailures() {
        func discovered(_ response: UploadResponse, size: Int64 = 10) -> TusClientStateMachine.Action {
            var machine = TusClientStateMachine(plan: Self.plan(size: size))
            _ = machine.start()
            return machine.answered(response)
        }
        let url = Self.creation.url
        #expect(discovered(Self.response(405)) == .fail(.tusFailed(reason: .notATusServer(url: url, status: 405))))
        #expect(discovered(Self.response(200)) == .fail(.tusFailed(reason: .notATusServer(url: url, status: 200))))
        #expect(discovered(Self.response(204, [("Tus-Version", "0.2.2")]))
            == .fail(.tusFailed(reason: .versionUnsupported(offered: ["0.2.2"]))))
        #expect(discovered(Self.response(204, [("Tus-Version", "1.0.0"), ("Tus-Extension", "termination")]))
            == .fail(.tusFailed(reason: .creationUnsupported(url: url))))
        #expect(discovered(Self.response(204, [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation"), ("Tus-Max-Size", "9")]))
            == .fail(.tusFailed(reason: .fileTooLarge(size: 10, maximum: 9))))
        #expect(Self.request(discovered(Self.response(204, [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation"),
                                                           ("Tus-Max-Size", "10")])))?.method == "POST")
        let busy = Self.response(503, [("Retry-After", "2")])
        #expect(discovered(busy) == .finish(busy))
    }

    @Test("statuses the machine has no use for end the attempt with the response, for the manager to classify")
    func otherStatuses() {
        var creating = TusClientStateMachine(plan: Self.plan())
        _ = creating.start()
        _ = creating.answered(Self.options)
        let tooLarge = Self.response(413)
        #expect(creating.answered(tooLarge) == .finish(tooLarge))
        var patching = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = patching.start()
        _ = patching.answered(Self.options)
        _ = patching.answered(Self.response(200, [("Upload-Offset", "0")]))
        let busy = Self.response(500)
        #expect(patching.answered(busy) == .finish(busy))
    }

    @Test("a creation answer without a usable Location fails", arguments: [nil, "mailto:x"] as [String?])
    func badLocation(location: String?) {
        var machine = TusClientStateMachine(plan: Self.plan())
        _ = machine.start()
        _ = machine.answered(Self.options)
        #expect(machine.answered(Self.response(201, location.map { [("Location", $0)] } ?? []))
            == .fail(.tusFailed(reason: .locationUnusable(location: location))))
    }

    @Test("a failed request fails the attempt; the upload URL stays known for the next one")
    func failure() {
        var machine = TusClientStateMachine(plan: Self.plan())
        _ = machine.start()
        _ = machine.answered(Self.options)
        _ = machine.answered(Self.response(201, [("Location", "/files/abc")]))
        let lost = UploadError.transferFailed(reason: .connectionLost(message: "reset"))
        #expect(machine.failed(lost) == .fail(lost))
        #expect(machine.uploadURL == Self.upload)
        #expect(!lost.mayHaveArrived)
    }

    @Test("a stop keeps the upload for resuming: no DELETE, the upload URL still known")
    func stop() {
        var machine = TusClientStateMachine(plan: Self.plan())
        _ = machine.start()
        _ = machine.answered(Self.options)
        _ = machine.answered(Self.response(201, [("Location", "/files/abc")]))
        #expect(machine.cancel(discardingUpload: false) == .stop)
        #expect(machine.uploadURL == Self.upload)
    }

    @Test("cancel: DELETE to a known upload (with termination or not yet discovered), else stop; the DELETE's end stops")
    func cancel() {
        var patching = TusClientStateMachine(plan: Self.plan())
        _ = patching.start()
        _ = patching.answered(Self.options)
        _ = patching.answered(Self.response(201, [("Location", "/files/abc")]))
        let delete = Self.request(patching.cancel(discardingUpload: true))
        #expect(delete?.method == "DELETE" && delete?.target == Self.upload && Self.header(delete, "Tus-Resumable") == "1.0.0")
        #expect(patching.answered(Self.response(204)) == .stop)

        var failing = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        #expect(Self.request(failing.cancel(discardingUpload: true))?.method == "DELETE")
        #expect(failing.failed(.transferFailed(reason: .connectTimedOut)) == .stop)

        var unknown = TusClientStateMachine(plan: Self.plan())
        _ = unknown.start()
        #expect(unknown.cancel(discardingUpload: true) == .stop)

        var noTermination = TusClientStateMachine(plan: Self.plan())
        _ = noTermination.start()
        _ = noTermination.answered(Self.response(204, [("Tus-Version", "1.0.0"), ("Tus-Extension", "creation")]))
        _ = noTermination.answered(Self.response(201, [("Location", "/files/abc")]))
        #expect(noTermination.cancel(discardingUpload: true) == .stop)

        var finished = TusClientStateMachine(plan: Self.plan(uploadURL: Self.upload))
        _ = finished.start()
        _ = finished.answered(Self.options)
        _ = finished.answered(Self.response(200, [("Upload-Offset", "10")]))
        #expect(finished.cancel(discardingUpload: true) == .stop)
    }
}
