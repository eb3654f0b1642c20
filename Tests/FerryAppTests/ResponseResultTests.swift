import FerryApp
import Multipart
import TerminalUI
import Testing
import UploadModel
import UploadProtocols

/// What the server answered, as the queue shows it: a JSON answer's link on the row, the answer
/// indented in the details, an S3 error in words.
@Suite("The server's answer in the queue")
struct ResponseResultTests {
    private static let json = UploadResponse(
        status: 201, headers: [HeaderField(name: "Content-Type", value: "application/json")],
        body: Array(#"{"id":7,"url":"https://files.example/f/7","meta":{"z":1,"a":[true,null]}}"#.utf8))

    @Test("a succeeded job's row shows the link its JSON answer gave, kept without the response")
    func linkOnTheRow() {
        let done = UploadJob(id: 1, spec: QueueRowTests.spec("photo.jpg", size: 5), state: .succeeded, attempts: 1, response: Self.json)
        var state = QueueRowTests.state(size: Size(width: 100, height: 24))
        _ = state.update(.uploadEventReceived(.succeeded(done)))
        #expect(state.queue.rows[1]?.link == "https://files.example/f/7")
        #expect(state.queue.rows[1]?.job.response == nil)
        _ = state.update(.keyPressed(.char("3")))
        let screen = QueueRowTests.trimmed(AppView.render(state, size: state.size).lines())
        #expect(screen.contains { $0.contains("photo.jpg") && $0.contains("→ https://files.example/f/7") }, "\(screen)")
        let plain = UploadJob(id: 2, spec: QueueRowTests.spec("b.txt", size: 5), state: .succeeded, attempts: 1,
                              response: UploadResponse(status: 200, body: Array("ok".utf8)))
        _ = state.update(.uploadEventReceived(.succeeded(plain)))
        #expect(state.queue.rows[2]?.link == nil)
    }

    @Test("Y copies the link of the job under the cursor to the clipboard; a job without one says why")
    func copyLink() {
        let done = UploadJob(id: 1, spec: QueueRowTests.spec("photo.jpg", size: 5), state: .succeeded, attempts: 1, response: Self.json)
        let plain = UploadJob(id: 2, spec: QueueRowTests.spec("b.txt", size: 5), state: .succeeded, attempts: 1,
                              response: UploadResponse(status: 200, body: Array("ok".utf8)))
        var state = QueueRowTests.state(size: Size(width: 100, height: 24))
        _ = state.update(.uploadEventReceived(.succeeded(done)))
        _ = state.update(.uploadEventReceived(.succeeded(plain)))
        _ = state.update(.keyPressed(.char("3")))
        #expect(state.queue.current?.id == 1)
        #expect(state.update(.keyPressed(.char("Y"))) == [.copyToClipboard("https://files.example/f/7")])
        #expect(state.notice?.contains("copied https://files.example/f/7") == true, "\(state.notice ?? "")")
        _ = state.update(.keyPressed(.char("j")))
        #expect(state.queue.current?.id == 2)
        #expect(state.update(.keyPressed(.char("Y"))) == [])
        #expect(state.notice?.contains("gave no link") == true, "\(state.notice ?? "")")
    }

    @Test("the details show the link and the JSON answer indented, members in the server's order")
    func prettyDetails() throws {
        let done = UploadJob(id: 1, spec: QueueRowTests.spec("photo.jpg", size: 5), state: .succeeded, attempts: 1, response: Self.json)
        var state = QueueRowTests.state(size: Size(width: 100, height: 40))
        _ = state.update(.uploadEventReceived(.succeeded(done)))
        _ = state.update(.keyPressed(.char("3")))
        _ = state.update(.keyPressed(.key(.enter)))
        _ = state.update(.jobDetailsLoaded(done))
        let lines = QueueRowTests.trimmed(AppView.render(state, size: state.size).lines())
        let details = lines.map { String($0.drop { $0 == " " || $0 == "\u{A0}" }) }
        #expect(details.contains("Link: https://files.example/f/7"), "\(details)")
        let body = Array(details.drop { $0 != "Body:" }.dropFirst().prefix(11))
        #expect(body == ["{", #""id": 7,"#, #""url": "https://files.example/f/7","#, #""meta": {"#, #""z": 1,"#, #""a": ["#,
                         "true,", "null", "]", "}", "}"], "\(details)")
        let meta = try #require(lines.first { $0.hasSuffix(#""meta": {"#) })
        let z = try #require(lines.first { $0.hasSuffix(#""z": 1,"#) })
        #expect(z.prefix { $0 == " " || $0 == "\u{A0}" }.count == meta.prefix { $0 == " " || $0 == "\u{A0}" }.count + 2,
                "two spaces a level")
    }

    @Test("a failed row says what an S3 store refused, in words, not the XML's first line")
    func s3FailureOnTheRow() {
        let body = Array(#"<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Policy expired.</Message></Error>"#.utf8)
        let response = UploadResponse(status: 403, body: body)
        let error = RedirectPolicy.error(for: response, jobURL: "http://h/u", followsRedirects: false, retryAfter: nil)
        let failed = UploadJob(id: 1, spec: QueueRowTests.spec("a.bin", size: 5), state: .failed, attempts: 1, lastError: error,
                               response: response)
        let app = QueueRowTests.queueApp([failed], size: Size(width: 120, height: 24))
        let screen = QueueRowTests.trimmed(app.screen(width: 120, height: 24).lines())
        #expect(screen.contains { $0.contains("HTTP 403 S3 refused the upload: AccessDenied — Po…") }, "\(screen.joined(separator: "\n"))")
    }
}
