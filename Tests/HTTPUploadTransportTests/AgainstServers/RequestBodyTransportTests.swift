import Foundation
import Multipart
import NIOCore
import Synchronization
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadProtocols

/// The transport sends any `RequestBody`, not only a form: a file's range under its own content
/// type, as a resumable protocol's attempt would (Python's `http.server` reads it).
@Suite("The transport sends any request body", .serialized, .timeLimit(.minutes(2)))
struct RequestBodyTransportTests {
    /// Reads each request's body by its Content-Length and prints its method, content type,
    /// length and SHA-256; answers 204.
    static let script = """
    import hashlib, http.server, sys
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def do_PATCH(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            print("GOT", self.command, self.headers["Content-Type"], len(body), hashlib.sha256(body).hexdigest(), flush=True)
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    print("PORT", server.server_address[1], flush=True)
    server.serve_forever()
    """

    @Test("a PATCH of bytes 1000..<600000 of a file, typed application/offset+octet-stream, arrives whole")
    func fileRange() async throws {
        let server = try PythonScriptServer(script: Self.script)
        let dir = TemporaryDirectory()
        let path = dir.path("data.bin")
        let content = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        try TestFile.write(content, to: path)
        let snapshot = try FileInspector.inspect(path)
        let body = RequestBody(segments: [.file(snapshot, range: 1_000..<600_000)], contentType: "application/offset+octet-stream")
        let target = try UploadTarget("http://127.0.0.1:\(server.port)/files/1")
        let message = RequestMessage(method: "PATCH", target: target, headers: [
            HeaderField(name: "Host", value: "127.0.0.1:\(server.port)"),
            HeaderField(name: "Content-Type", value: body.contentType),
            HeaderField(name: "Upload-Offset", value: "1000"),
            HeaderField(name: "Content-Length", value: String(body.contentLength)),
        ], body: body)
        let transport = HTTPTransport()
        let outcome = Mutex<Result<UploadResponse, UploadError>?>(nil)
        let done = AsyncStream<Void>.makeStream()
        _ = transport.start(UploadRequest(message: message, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(5),
                                          idleTimeout: .seconds(10)),
                            bodyCompleting: { true },
                            completion: { result in
                                outcome.withLock { $0 = result }
                                done.continuation.finish()
                            })
        for await _ in done.stream {}
        let result = try #require(outcome.withLock { $0 })
        #expect(try result.get().status == 204)
        let range = dir.path("range.bin")
        try TestFile.write(content[1_000..<600_000], to: range)
        let digest = try LiveUpload.sha256(of: range)
        #expect(try await server.wait(for: "GOT PATCH application/offset+octet-stream 599000 \(digest)"), "\(server.lines)")
        try await transport.shutdown()
    }
}
