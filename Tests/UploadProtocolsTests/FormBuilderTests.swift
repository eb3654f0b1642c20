import Foundation
import Multipart
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadProtocols

@Suite("FormBuilder")
struct FormBuilderTests {
    static func bodyText(_ body: RequestBody) throws -> String {
        let reader = body.makeReader(chunkSize: 7)
        defer { reader.close() }
        var bytes: [UInt8] = []
        while let chunk = try reader.nextChunk() { bytes += chunk }
        #expect(Int64(bytes.count) == body.contentLength)
        return String(decoding: bytes, as: UTF8.self)
    }

    static let builder = FormBuilder(encoder: MultipartEncoder(boundary: try! Boundary("XyZ")))

    @Test("text fields first in order, then -F file parts, then the job's files under the field name")
    func order() throws {
        let directory = TemporaryDirectory()
        let photo = directory.file("photo.jpg", bytes: 3, fill: 0x50)
        let extra = directory.file("meta.json", bytes: 2, fill: 0x7B)
        let spec = UploadJobSpec(
            url: "https://example.test/up",
            fileField: "upload",
            textFields: [FormTextField(name: "b", value: "2"), FormTextField(name: "a", value: "1")],
            extraFileParts: [ExtraFilePart(name: "meta", path: extra, filename: "m.json", contentType: "application/x-meta")],
            files: [QueuedFile.capture(path: photo)]
        )
        let request = try Self.builder.request(for: spec, jobID: UploadJobID(7), attempt: 2, connectTimeout: .seconds(1), idleTimeout: .seconds(2))
        let expected = [
            "--XyZ", "Content-Disposition: form-data; name=\"b\"", "", "2",
            "--XyZ", "Content-Disposition: form-data; name=\"a\"", "", "1",
            "--XyZ", "Content-Disposition: form-data; name=\"meta\"; filename=\"m.json\"", "Content-Type: application/x-meta", "", "{{",
            "--XyZ", "Content-Disposition: form-data; name=\"upload\"; filename=\"photo.jpg\"", "Content-Type: image/jpeg", "", "PPP",
            "--XyZ--", "",
        ].joined(separator: "\r\n")
        #expect(try Self.bodyText(request.message.body) == expected)
        #expect(request.jobID == UploadJobID(7))
        #expect(request.attempt == 2)
        #expect(request.message.method == "POST")
        #expect(request.idleTimeout == .seconds(2))
    }

    @Test("bundle mode: several files under one field name")
    func bundle() throws {
        let directory = TemporaryDirectory()
        let files = ["a.txt", "b.txt", "c.txt"].map { QueuedFile.capture(path: directory.file($0, bytes: 1)) }
        let spec = UploadJobSpec(url: "http://h/u", files: files)
        let form = Self.builder.form(for: spec)
        #expect(form.parts.map(\.name) == ["file", "file", "file"])
        #expect(form.parts.map(\.filename) == ["a.txt", "b.txt", "c.txt"])
        let text = try Self.bodyText(try Self.builder.request(for: spec, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(1), idleTimeout: .seconds(1)).message.body)
        #expect(text.components(separatedBy: "name=\"file\"").count == 4)
    }

    @Test("headers: Host, User-Agent and Accept first, then the user's, then Content-Type and Content-Length from the body")
    func headers() throws {
        let directory = TemporaryDirectory()
        let spec = UploadJobSpec(
            url: "http://h/u", method: "PUT",
            headers: [HeaderField(name: "Authorization", value: "Bearer s3cret")],
            files: [QueuedFile.capture(path: directory.file("x.bin"))]
        )
        let request = try Self.builder.request(for: spec, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(1), idleTimeout: .seconds(1))
        #expect(request.message.headers.map(\.name) == ["Host", "User-Agent", "Accept", "Authorization", "Content-Type", "Content-Length"])
        #expect(request.message.headers[3] == HeaderField(name: "Authorization", value: "Bearer s3cret"))
        #expect(request.message.headers[4] == HeaderField(name: "Content-Type", value: "multipart/form-data; boundary=XyZ"))
        #expect(request.message.headers[5] == HeaderField(name: "Content-Length", value: String(request.message.body.contentLength)))
        #expect(request.message.method == "PUT")
    }

    @Test("invalid URL, scheme, method and header are request errors",
          arguments: [
            (UploadJobSpec(url: "not a url", files: []), UploadError.requestInvalid(reason: .invalidTarget(.notAURL("not a url")))),
            (UploadJobSpec(url: "ftp://h/x", files: []), .requestInvalid(reason: .invalidTarget(.unsupportedScheme("ftp", "ftp://h/x")))),
            (UploadJobSpec(url: "http:///x", files: []), .requestInvalid(reason: .invalidTarget(.missingHost("http:///x")))),
            (UploadJobSpec(url: "http://h/x", method: "PO ST", files: []), .requestInvalid(reason: .invalidMethod("PO ST"))),
            (UploadJobSpec(url: "http://h/x", headers: [HeaderField(name: "X-A", value: "a\r\nb")], files: []),
             .requestInvalid(reason: .invalidHeader(.badValue("X-A")))),
            (UploadJobSpec(url: "http://h/x", headers: [HeaderField(name: "Content-Type", value: "text/plain")], files: []),
             .requestInvalid(reason: .invalidHeader(.reserved("Content-Type")))),
          ])
    func invalidRequests(spec: UploadJobSpec, expected: UploadError) {
        #expect(throws: expected) {
            try Self.builder.request(for: spec, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(1), idleTimeout: .seconds(1))
        }
    }

    @Test("a missing file, a directory and a FIFO fail with the encoder's reason naming the file")
    func badFiles() throws {
        let directory = TemporaryDirectory()
        let fifo = directory.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [(String, MultipartError.FileRejection)] = [
            (directory.path("missing.bin"), .doesNotExist),
            (directory.path, .isDirectory),
            (fifo, .notRegularFile(kind: "FIFO")),
        ]
        for (path, rejection) in cases {
            let spec = UploadJobSpec(url: "http://h/u", files: [QueuedFile.capture(path: path)])
            #expect(throws: UploadError.multipartFailed(.fileRejected(path: path, reason: rejection))) {
                try Self.builder.request(for: spec, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(1), idleTimeout: .seconds(1))
            }
        }
    }

    @Test("a file that changed size or mtime since it was queued is flagged, not sent")
    func changedFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("grow.txt", bytes: 10)
        let queued = QueuedFile.capture(path: path)
        #expect(queued.size == 10)
        #expect(!queued.hasChangedSinceQueued())
        directory.file("grow.txt", bytes: 11)
        #expect(queued.hasChangedSinceQueued())
        let spec = UploadJobSpec(url: "http://h/u", files: [queued])
        #expect(throws: UploadError.fileChangedSinceQueued(path: path)) {
            try Self.builder.request(for: spec, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(1), idleTimeout: .seconds(1))
        }
        // Same size, other mtime.
        let touched = QueuedFile(path: path, size: 11, modificationTimeNanoseconds: 1)
        #expect(touched.hasChangedSinceQueued())
        #expect(touched.recaptured().size == 11)
        #expect(!touched.recaptured().hasChangedSinceQueued())
        #expect(throws: UploadError.fileChangedSinceQueued(path: path)) {
            try Self.builder.message(for: UploadJobSpec(url: "http://h/u", files: [touched]))
        }
        _ = try Self.builder.message(for: UploadJobSpec(url: "http://h/u", files: [touched.recaptured()]))
        // A file missing now is not "changed": the encoder reports it.
        #expect(!QueuedFile.capture(path: directory.path("nothing")).hasChangedSinceQueued())
        // An empty file (no body segment of its own) is judged too, in both directions.
        let empty = directory.file("empty.txt", bytes: 0)
        let queuedEmpty = QueuedFile.capture(path: empty)
        _ = try Self.builder.message(for: UploadJobSpec(url: "http://h/u", files: [queuedEmpty]))
        directory.file("empty.txt", bytes: 3)
        #expect(throws: UploadError.fileChangedSinceQueued(path: empty)) {
            try Self.builder.message(for: UploadJobSpec(url: "http://h/u", files: [queuedEmpty]))
        }
        let emptied = QueuedFile.capture(path: empty)
        directory.file("empty.txt", bytes: 0)
        #expect(throws: UploadError.fileChangedSinceQueued(path: empty)) {
            try Self.builder.message(for: UploadJobSpec(url: "http://h/u", files: [emptied]))
        }
        // The same file twice in a bundle: judged for each.
        _ = try Self.builder.message(for: UploadJobSpec(url: "http://h/u", files: [touched.recaptured(), touched.recaptured()]))
    }
}
