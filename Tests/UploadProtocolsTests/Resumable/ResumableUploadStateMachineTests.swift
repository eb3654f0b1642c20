import Multipart
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadProtocols

/// `ResumableUploadStateMachine` without a network: the creation fields, the `104`'s
/// `Location`, `HEAD` and `PATCH` from the server's offset after a lost connection, and every
/// case where nothing is resumed and the first failure stands.
@Suite("Resumable uploads over HTTP (the state machine)")
struct ResumableUploadStateMachineTests {
    typealias Machine = ResumableUploadStateMachine

    static let target = try! UploadTarget("http://127.0.0.1:8080/upload")
    static let body = RequestBody(segments: [.bytes(Array(repeating: 7, count: 1_000))], contentType: "multipart/form-data; boundary=b")
    static let message = RequestMessage(method: "POST", target: target, headers: [
        HeaderField(name: "Host", value: "127.0.0.1:8080"), HeaderField(name: "Authorization", value: "Bearer t"),
        HeaderField(name: "Content-Type", value: body.contentType), HeaderField(name: "Content-Length", value: "1000"),
    ] + ResumableUploadFields.creationFields, body: body)
    static let lost = UploadError.transferFailed(reason: .connectionLost(message: "the server closed the connection while the body was being sent"))
    static let resumption = [HeaderField(name: "Upload-Draft-Interop-Version", value: "6"),
                             HeaderField(name: "Location", value: "http://127.0.0.1:8080/resumable_upload/1-2")]

    static func sent(_ action: Machine.Action) -> RequestMessage? {
        if case let .send(message) = action { return message }
        return nil
    }

    static func value(_ name: String, in message: RequestMessage?) -> String? {
        message?.headers.first { $0.name == name }?.value
    }

    static func offsetAnswer(_ offset: Int, complete: String = "?0", status: Int = 204) -> UploadResponse {
        UploadResponse(status: status, headers: [HeaderField(name: "Upload-Draft-Interop-Version", value: "6"),
                                                 HeaderField(name: "Upload-Complete", value: complete),
                                                 HeaderField(name: "Upload-Offset", value: String(offset))])
    }

    @Test("the request goes as it is, with the interop version and Upload-Complete: ?1; its answer is the answer")
    func creation() throws {
        var machine = Machine(message: Self.message)
        let first = try #require(Self.sent(machine.start()))
        #expect(first.method == "POST" && first.target == Self.target && first.body == Self.body)
        #expect(first.headers == Self.message.headers)
        #expect(Self.value("Upload-Draft-Interop-Version", in: first) == "6")
        #expect(Self.value("Upload-Complete", in: first) == "?1")
        machine.informational(status: 104, headers: Self.resumption)
        guard case let .finish(response) = machine.answered(UploadResponse(status: 201)) else {
            Issue.record("the answer did not finish the attempt")
            return
        }
        #expect(response.status == 201 && response.resumedAt == nil)
        #expect(machine.resumedAt.isEmpty)
    }

    @Test("a lost connection after the 104: HEAD on its Location, then PATCH of the body's rest from the server's offset")
    func resumes() throws {
        var machine = Machine(message: Self.message)
        _ = machine.start()
        machine.informational(status: 100, headers: [])
        machine.informational(status: 104, headers: [HeaderField(name: "Location", value: "/resumable_upload/1-2")])
        #expect(machine.uploadURL?.url == "http://127.0.0.1:8080/resumable_upload/1-2", "a relative Location is resolved")
        let head = try #require(Self.sent(machine.failed(Self.lost)))
        #expect(head.method == "HEAD" && head.target.url == "http://127.0.0.1:8080/resumable_upload/1-2")
        #expect(Self.value("Upload-Draft-Interop-Version", in: head) == "6")
        #expect(Self.value("Authorization", in: head) == "Bearer t", "the same origin keeps the credentials")
        #expect(Self.value("Content-Length", in: head) == nil && Self.value("Upload-Complete", in: head) == nil)
        #expect(head.headers.filter { $0.name == "Upload-Draft-Interop-Version" }.count == 1)
        #expect(head.body.contentLength == 0)

        let patch = try #require(Self.sent(machine.answered(Self.offsetAnswer(600))))
        #expect(patch.method == "PATCH" && patch.target == head.target)
        #expect(Self.value("Upload-Offset", in: patch) == "600")
        #expect(Self.value("Upload-Complete", in: patch) == "?1")
        #expect(Self.value("Content-Type", in: patch) == "application/partial-upload")
        #expect(Self.value("Content-Length", in: patch) == "400")
        #expect(patch.body.contentLength == 400)
        #expect(patch.headers.filter { $0.name == "Content-Type" }.count == 1, "the form's type is not sent with the rest")
        #expect(patch.headers.filter { $0.name == "Upload-Complete" }.count == 1)
        #expect(machine.offset == 600 && machine.resumedAt == [600])

        guard case let .finish(response) = machine.answered(UploadResponse(status: 201)) else {
            Issue.record("the PATCH's answer did not finish the attempt")
            return
        }
        #expect(response.status == 201)
        #expect(response.resumedAt == [600], "the answer says where it went on from")
    }

    @Test("a lost PATCH is resumed again; a 409 asks for the offset again; a fourth resumption in a row without progress is not made")
    func resumesAgainUntilNoProgress() throws {
        var machine = Machine(message: Self.message)
        _ = machine.start()
        machine.informational(status: 104, headers: Self.resumption)
        _ = machine.failed(Self.lost)
        _ = machine.answered(Self.offsetAnswer(100))
        #expect(Self.sent(machine.failed(UploadError.transferFailed(reason: .idleTimedOut)))?.method == "HEAD")
        #expect(Self.sent(machine.answered(Self.offsetAnswer(700)))?.method == "PATCH")
        #expect(Self.sent(machine.answered(Self.offsetAnswer(800, status: 409)))?.method == "HEAD", "409: the offset moved")
        _ = machine.answered(Self.offsetAnswer(800))
        #expect(machine.resumedAt == [100, 700, 800])
        // No progress from here on: the offset stays at 800.
        #expect(Self.sent(machine.failed(Self.lost))?.method == "HEAD")
        _ = machine.answered(Self.offsetAnswer(800))
        #expect(Self.sent(machine.failed(Self.lost))?.method == "HEAD")
        _ = machine.answered(Self.offsetAnswer(800))
        #expect(Self.sent(machine.failed(Self.lost))?.method == "HEAD", "the third without progress")
        _ = machine.answered(Self.offsetAnswer(800))
        guard case let .fail(error) = machine.failed(Self.lost) else {
            Issue.record("resumed forever without progress")
            return
        }
        #expect(error == Self.lost, "the first failure stands")
    }

    @Test("nothing is resumed without a 104, when the upload's URL is gone, or after a stop; a complete one arrived, its answer lost")
    func notResumed() throws {
        var silent = Machine(message: Self.message)
        _ = silent.start()
        guard case let .fail(error) = silent.failed(Self.lost) else {
            Issue.record("resumed without a Location")
            return
        }
        #expect(error == Self.lost)

        var arrived = Machine(message: Self.message)
        _ = arrived.start()
        arrived.informational(status: 104, headers: Self.resumption)
        _ = arrived.failed(Self.lost)
        let complete = Self.offsetAnswer(1_000, complete: "?1")
        guard case let .finish(settled) = arrived.answered(complete) else {
            Issue.record("a complete upload was not settled as arrived")
            return
        }
        #expect(settled.answerWasLost == true && settled.status == 204, "the HEAD's answer, marked: \(settled)")

        for answer in [UploadResponse(status: 404), Self.offsetAnswer(1_001),
                       UploadResponse(status: 204, headers: [HeaderField(name: "Upload-Offset", value: "abc")])] {
            var machine = Machine(message: Self.message)
            _ = machine.start()
            machine.informational(status: 104, headers: Self.resumption)
            _ = machine.failed(Self.lost)
            guard case let .fail(error) = machine.answered(answer) else {
                Issue.record("resumed after \(answer.status) \(answer.headers)")
                continue
            }
            #expect(error == Self.lost, "the connection's failure stands: the manager treats it as it would without resumption")
        }

        var stopped = Machine(message: Self.message)
        _ = stopped.start()
        stopped.informational(status: 104, headers: Self.resumption)
        let stop = UploadError.transferFailed(reason: .stoppedAfterSending)
        guard case let .fail(stoppedError) = stopped.failed(stop) else {
            Issue.record("a stop was resumed")
            return
        }
        #expect(stoppedError == stop)
    }

    @Test("a cancelled job's DELETE goes to the upload's URL; without one there is nothing to remove")
    func cancellation() throws {
        var machine = Machine(message: Self.message)
        _ = machine.start()
        #expect(machine.cancellationRequest() == nil)
        machine.informational(status: 104, headers: Self.resumption)
        let delete = try #require(machine.cancellationRequest())
        #expect(delete.method == "DELETE" && delete.target.url == "http://127.0.0.1:8080/resumable_upload/1-2")
        #expect(Self.value("Upload-Draft-Interop-Version", in: delete) == "6" && delete.body.contentLength == 0)
    }

    @Test("an earlier run's upload is asked first: PATCH of the rest from its offset; gone, the request goes whole (unless that run may have completed it); complete, it arrived")
    func earlierRun() throws {
        let earlier = try UploadTarget("http://127.0.0.1:8080/resumable_upload/7-7")
        var going = Machine(message: Self.message, resumingAt: earlier)
        let head = try #require(Self.sent(going.start()))
        #expect(head.method == "HEAD" && head.target == earlier)
        let patch = try #require(Self.sent(going.answered(Self.offsetAnswer(250))))
        #expect(patch.method == "PATCH" && Self.value("Upload-Offset", in: patch) == "250" && patch.body.contentLength == 750)
        guard case let .finish(response) = going.answered(UploadResponse(status: 201)) else {
            Issue.record("the PATCH's answer did not finish the attempt")
            return
        }
        #expect(response.resumedAt == [250])

        for gone in [UploadResponse(status: 404), UploadResponse(status: 204)] {
            var machine = Machine(message: Self.message, resumingAt: earlier)
            _ = machine.start()
            let whole = try #require(Self.sent(machine.answered(gone)))
            #expect(whole.method == "POST" && whole.body == Self.body && whole.headers == Self.message.headers, "\(gone.status)")
            #expect(machine.uploadURL == nil && machine.step == .upload)
            machine.informational(status: 104, headers: Self.resumption)
            #expect(machine.uploadURL?.url == "http://127.0.0.1:8080/resumable_upload/1-2", "the new upload's URL")
        }

        var complete = Machine(message: Self.message, resumingAt: earlier)
        _ = complete.start()
        guard case let .finish(settled) = complete.answered(Self.offsetAnswer(1_000, complete: "?1")) else {
            Issue.record("a complete upload was sent again")
            return
        }
        #expect(settled.answerWasLost == true)

        for gone in [UploadResponse(status: 404), UploadResponse(status: 204)] {
            var forgotten = Machine(message: Self.message, resumingAt: earlier, earlierMayBeComplete: true)
            _ = forgotten.start()
            guard case let .fail(error) = forgotten.answered(gone) else {
                Issue.record("an upload that may have completed was sent whole again (\(gone.status))")
                continue
            }
            #expect(error.mayHaveArrived, "\(error)")
        }

        var unreachable = Machine(message: Self.message, resumingAt: earlier)
        _ = unreachable.start()
        let refused = UploadError.transferFailed(reason: .connectionRefused(host: "127.0.0.1", port: 8080))
        guard case let .fail(refusal) = unreachable.failed(refused) else {
            Issue.record("an unreachable server did not fail the attempt")
            return
        }
        #expect(refusal == refused, "the next attempt asks again")
    }

    @Test("a checkpoint names the body's boundary; its fingerprint tells another form, boundary or file from the same body")
    func checkpointAndFingerprint() throws {
        let dir = TemporaryDirectory()
        // Over 64 KiB: a smaller job goes whole, as a plain request.
        let path = dir.file("a.bin", bytes: 70_000)
        let spec = UploadJobSpec(url: "http://127.0.0.1:8080/upload", textFields: [FormTextField(name: "k", value: "v")],
                                 files: [QueuedFile(path: path, stamp: try FileInspector.inspect(path).stamp)],
                                 connection: ConnectionOptions(resumesUploads: true))
        let builder = FormBuilder()
        let first = try builder.resumableRequest(for: spec, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(1),
                                                 idleTimeout: .seconds(1), checkpoint: nil)
        #expect(first.resumableUploadURL == nil)
        #expect(Array(first.message.headers.suffix(2)) == ResumableUploadFields.creationFields)
        let checkpoint = try #require(ResumableCheckpoint(uploadURL: "http://127.0.0.1:8080/resumable_upload/1-2", body: first.message.body))
        #expect(first.message.body.contentType == "multipart/form-data; boundary=\(checkpoint.boundary)")

        let again = try builder.resumableRequest(for: spec, jobID: UploadJobID(1), attempt: 2, connectTimeout: .seconds(1),
                                                 idleTimeout: .seconds(1), checkpoint: checkpoint)
        #expect(again.message.body == first.message.body, "the same boundary makes the same body")
        #expect(again.resumableUploadURL?.url == checkpoint.uploadURL)

        var otherForm = spec
        otherForm.textFields = [FormTextField(name: "k", value: "w")]
        let other = try builder.resumableRequest(for: otherForm, jobID: UploadJobID(1), attempt: 2, connectTimeout: .seconds(1),
                                                 idleTimeout: .seconds(1), checkpoint: checkpoint)
        #expect(other.resumableUploadURL == nil, "another body is never spliced onto the upload")
        var otherBoundary = checkpoint
        otherBoundary.boundary += "x"
        #expect(ResumableCheckpoint.fingerprint(of: other.message.body) != checkpoint.bodyFingerprint)
        let fresh = try builder.resumableRequest(for: spec, jobID: UploadJobID(1), attempt: 2, connectTimeout: .seconds(1),
                                                 idleTimeout: .seconds(1), checkpoint: otherBoundary)
        #expect(fresh.resumableUploadURL == nil)
        #expect(ResumableCheckpoint(uploadURL: "u", body: RequestBody(segments: [], contentType: "application/octet-stream")) == nil)
    }

    @Test("an upload URL on another origin gets no credentials")
    func otherOrigin() throws {
        var machine = Machine(message: Self.message)
        _ = machine.start()
        machine.informational(status: 104, headers: [HeaderField(name: "Location", value: "http://uploads.example:9000/r/1")])
        let head = try #require(Self.sent(machine.failed(Self.lost)))
        #expect(Self.value("Authorization", in: head) == nil)
        #expect(Self.value("Host", in: head) == "uploads.example:9000")
    }

    @Test("Structured Field items: integers of at most 15 digits, booleans, parameters ignored")
    func fields() {
        #expect(ResumableUploadFields.integer("123") == 123)
        #expect(ResumableUploadFields.integer(" 42 ;a=b") == 42)
        #expect(ResumableUploadFields.integer("-5") == -5)
        #expect(ResumableUploadFields.integer("1234567890123456") == nil)
        #expect(ResumableUploadFields.integer("12a") == nil)
        #expect(ResumableUploadFields.integer("") == nil)
        #expect(ResumableUploadFields.boolean("?1") == true)
        #expect(ResumableUploadFields.boolean("?0;x") == false)
        #expect(ResumableUploadFields.boolean("1") == nil)
    }
}
