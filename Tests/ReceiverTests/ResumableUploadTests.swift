import Foundation
import Receiver
import Testing

/// `/upload` as a resumable upload (the IETF draft, interop version 6): a raw client cuts its
/// connection mid-body; curl asks where the upload stands (`HEAD`), sends the rest (`PATCH`),
/// removes one (`DELETE`). The stored file is the whole body's, byte for byte.
@Suite("Resumable uploads at /upload (the IETF draft)")
struct ResumableUploadTests {
    static let draftHeaders = ["Upload-Draft-Interop-Version: 6", "Upload-Complete: ?1"]

    /// Sends the head and the first `sent` bytes of `body` on a raw connection, reads the `104`,
    /// then resets the connection. Returns the upload's URL path.
    static func cutUpload(_ harness: ReceiverHarness, body: [UInt8], sent: Int) async throws -> String {
        let head = RawMultipart.head(length: body.count, extraHeaders: draftHeaders)
        let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: Array(head.utf8))
        let informational = try #require(try await connection.readResponse())
        #expect(informational.status == 104, "\(informational.head)")
        let location = try #require(informational.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location:") })
        try await connection.send(Array(body[..<sent]))
        try await Task.sleep(for: .milliseconds(200))
        try await connection.abort()
        return String(location.dropFirst("location:".count)).trimmingCharacters(in: .whitespaces)
    }

    /// The `HEAD` of an upload: status, offset and completeness.
    static func locate(_ harness: ReceiverHarness, _ path: String, in directory: TestDirectory) async throws -> (status: Int, offset: Int?, complete: String?) {
        let headers = directory.source + "/head-\(UUID().uuidString)"
        let result = try await Curl.run(["-I", "-D", headers, "-H", "Upload-Draft-Interop-Version: 6", harness.url + path])
        let lines = ((try? String(contentsOfFile: headers, encoding: .utf8)) ?? "").lowercased().components(separatedBy: "\r\n")
        func value(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        return (result.status, value("upload-offset").flatMap { Int($0) }, value("upload-complete"))
    }

    @Test("a plain client that sends the draft's fields is told the upload's URL in a 104, and answered as always")
    func whole() async throws {
        try await ReceiverHarness.run { harness in
            let path = try harness.directory.writeSource("w", RandomBytes.make(100_000, seed: 21))
            let result = try await Curl.run(["-v"] + Self.draftHeaders.flatMap { ["-H", $0] }
                + ["-F", Curl.fileField("file", path: path, filename: "w.bin"), harness.url + "/upload"])
            #expect(result.status == 200, "\(result.body)")
            #expect(result.errorOutput.contains("< HTTP/1.1 104 Upload Resumption Supported"), "\(result.errorOutput.prefix(2000))")
            #expect(result.errorOutput.contains("< Location: /upload-resumption/"))
            #expect(try harness.directory.uploadedNames() == ["w.bin"])
        }
    }

    @Test("cut mid-body: HEAD says how much arrived, a PATCH of the rest completes it, byte for byte; then HEAD says complete")
    func cutThenResumed() async throws {
        try await ReceiverHarness.run { harness in
            let content = RandomBytes.make(300_000, seed: 22)
            let body = RawMultipart.body([.field("note", "resumed"), .file("file", filename: "r.bin", content)])
            let upload = try await Self.cutUpload(harness, body: body, sent: 120_000)
            let cut = try await Self.locate(harness, upload, in: harness.directory)
            #expect(cut.status == 204 && cut.complete == "?0", "\(cut)")
            let offset = try #require(cut.offset)
            #expect(offset > 0 && offset <= 120_000, "\(offset)")
            #expect(try harness.directory.uploadedNames() == [], "nothing stored before the upload is complete")

            let wrong = try await Curl.run(["-X", "PATCH", "-H", "Upload-Offset: \(offset + 1)", "-H", "Upload-Complete: ?1",
                                            "-H", "Upload-Draft-Interop-Version: 6", "-H", "Content-Type: application/partial-upload",
                                            "--data-binary", "x", harness.url + upload])
            #expect(wrong.status == 409, "\(wrong.body)")
            #expect(try ReceiverHarness.decodeError(wrong.body).contains("holds \(offset) bytes"))

            let rest = harness.directory.source + "/rest"
            try Data(body[offset...]).write(to: URL(fileURLWithPath: rest))
            let patch = try await Curl.run(["-X", "PATCH", "-H", "Upload-Offset: \(offset)", "-H", "Upload-Complete: ?1",
                                            "-H", "Upload-Draft-Interop-Version: 6", "-H", "Content-Type: application/partial-upload",
                                            "--data-binary", "@" + rest, harness.url + upload])
            #expect(patch.status == 200, "\(patch.body)")
            #expect(patch.body.contains("\"r.bin\"") && patch.body.contains("resumed"), "the stored upload's answer: \(patch.body)")
            #expect(try harness.directory.uploadedNames() == ["r.bin"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: harness.directory.uploads + "/r.bin")) == Data(content))
            let done = try await Self.locate(harness, upload, in: harness.directory)
            #expect(done.status == 204 && done.complete == "?1" && done.offset == body.count, "\(done)")
        }
    }

    @Test("DELETE removes a parked upload and its files; its URL is then unknown (404)")
    func deleted() async throws {
        try await ReceiverHarness.run { harness in
            let body = RawMultipart.body([.file("file", filename: "d.bin", RandomBytes.make(200_000, seed: 23))])
            let upload = try await Self.cutUpload(harness, body: body, sent: 100_000)
            #expect(try await Self.locate(harness, upload, in: harness.directory).status == 204)
            let delete = try await Curl.run(["-X", "DELETE", "-H", "Upload-Draft-Interop-Version: 6", harness.url + upload])
            #expect(delete.status == 204)
            #expect(try await Self.locate(harness, upload, in: harness.directory).status == 404)
            try await Task.sleep(for: .milliseconds(100))
            let staged = (try? FileManager.default.contentsOfDirectory(atPath: harness.directory.uploads + "/.ferry-partial")) ?? []
            #expect(staged.filter { !$0.hasPrefix(".") }.isEmpty, "\(staged)")
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("no 104 through a proxy (X-Forwarded-For, Via, Forwarded: nginx takes it for the answer) nor with --no-resumable")
    func notOffered() async throws {
        try await ReceiverHarness.run { harness in
            let path = try harness.directory.writeSource("p", RandomBytes.make(10_000, seed: 24))
            for proxied in ["X-Forwarded-For: 10.0.0.1", "Via: 1.1 nginx", "Forwarded: for=10.0.0.1"] {
                let result = try await Curl.run(["-v", "-H", proxied] + Self.draftHeaders.flatMap { ["-H", $0] }
                    + ["-F", Curl.fileField("file", path: path, filename: "p.bin"), harness.url + "/upload"])
                #expect(result.status == 200)
                #expect(!result.errorOutput.contains("< HTTP/1.1 104"), "\(proxied)")
            }
        }
        try await ReceiverHarness.run(configure: { $0.offersResumableUploads = false }) { harness in
            let path = try harness.directory.writeSource("n", RandomBytes.make(10_000, seed: 25))
            let result = try await Curl.run(["-v"] + Self.draftHeaders.flatMap { ["-H", $0] }
                + ["-F", Curl.fileField("file", path: path, filename: "n.bin"), harness.url + "/upload"])
            #expect(result.status == 200)
            #expect(!result.errorOutput.contains("< HTTP/1.1 104"))
        }
    }
}
