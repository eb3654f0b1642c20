import Multipart
import TestSupport
import Testing
import UploadModel
import UploadProtocols

/// What the interface's `v` shows: the request head and the part headers as sent, secrets masked
/// by the one decision curl commands use, file contents as a line.
@Suite("The request as v shows it")
struct RequestPreviewTests {
    @Test("the request line, every header (secrets masked), each part's headers and text; a file's bytes as one line")
    func lines() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("a.txt", bytes: 7)
        let spec = UploadJobSpec(url: "http://127.0.0.1:9/up?x=1", headers: [HeaderField(name: "Authorization", value: "Bearer abc"),
                                                                             HeaderField(name: "X-Trace", value: "1")],
                                 textFields: [FormTextField(name: "note", value: "hi")], files: [QueuedFile.capture(path: file)])
        let message = try FormBuilder().message(for: spec)
        let lines = message.previewLines
        let boundary = try #require(message.body.contentType.split(separator: "=").last.map(String.init))
        #expect(Array(lines.prefix(2)) == ["POST /up?x=1 HTTP/1.1", "Host: 127.0.0.1:9"])
        #expect(lines.contains("Authorization: ********") && lines.contains("X-Trace: 1"))
        #expect(lines.contains("Content-Length: \(message.body.contentLength)"))
        #expect(!lines.joined().contains("abc"))
        let body = Array(lines.drop { !$0.isEmpty }.dropFirst())
        #expect(body == [
            "--\(boundary)", #"Content-Disposition: form-data; name="note""#, "", "hi",
            "--\(boundary)", #"Content-Disposition: form-data; name="file"; filename="a.txt""#, "Content-Type: text/plain", "",
            "[7 bytes of \(file)]", "--\(boundary)--",
        ])
    }
}
