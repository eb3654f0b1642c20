import Foundation
import Testing
import TestSupport
@testable import Multipart

/// `RequestBody`, the seam between what a protocol sends and the transport: bytes and file
/// ranges, an exact length, a content type, read again from the start for every attempt.
@Suite("Request bodies")
struct RequestBodyTests {
    @Test("a file range is read exactly, between bytes in memory, in chunks of every size")
    func fileRange() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("data.bin")
        let content = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try TestFile.write(content, to: path)
        let snapshot = try FileInspector.inspect(path)
        let body = RequestBody(segments: [.bytes(Array("head".utf8)), .file(snapshot, range: 1_234..<7_000), .bytes(Array("tail".utf8))],
                               contentType: "application/offset+octet-stream")
        #expect(body.contentLength == 4 + 5_766 + 4)
        #expect(body.files == [snapshot])
        let expected = Array("head".utf8) + content[1_234..<7_000] + Array("tail".utf8)
        for chunkSize in [1, 7, 4096, 100_000] {
            let reader = body.makeReader(chunkSize: chunkSize)
            var produced: [UInt8] = []
            while let chunk = try reader.nextChunk() { produced += chunk }
            #expect(produced == expected, "chunk size \(chunkSize)")
            #expect(reader.bytesProduced == body.contentLength)
        }
    }

    @Test("a body's suffix from every offset is exactly the bytes from there, file ranges still read from the file")
    func suffix() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("data.bin")
        let content = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try TestFile.write(content, to: path)
        let snapshot = try FileInspector.inspect(path)
        let body = RequestBody(segments: [.bytes(Array("head".utf8)), .file(snapshot, range: 100..<2_100), .bytes([]), .bytes(Array("tail".utf8))],
                               contentType: "multipart/form-data; boundary=x")
        let whole = Array("head".utf8) + content[100..<2_100] + Array("tail".utf8)
        for offset in [0, 1, 4, 5, 1_000, 2_003, 2_004, 2_005, 2_008] {
            let rest = body.suffix(from: Int64(offset), contentType: "application/partial-upload")
            #expect(rest.contentLength == Int64(whole.count - offset), "offset \(offset)")
            #expect(rest.contentType == "application/partial-upload")
            #expect(rest.files.allSatisfy { $0 == snapshot })
            let reader = rest.makeReader(chunkSize: 333)
            var produced: [UInt8] = []
            while let chunk = try reader.nextChunk() { produced += chunk }
            #expect(produced == Array(whole[offset...]), "offset \(offset)")
        }
    }

    @Test("a file changed after its range was checked fails the body, as a whole file does")
    func changedFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("data.bin", bytes: 5_000)
        let snapshot = try FileInspector.inspect(path)
        let body = RequestBody(segments: [.file(snapshot, range: 100..<200)], contentType: "application/octet-stream")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        #expect(throws: MultipartError.self) {
            let reader = body.makeReader()
            while try reader.nextChunk() != nil {}
        }
    }

    @Test("a multipart body is a request body typed multipart/form-data with its boundary; whole files are ranges from 0")
    func multipartProducesRequestBody() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("a.txt", bytes: 300)
        let body = try MultipartEncoder().prepare(MultipartForm(parts: [.file(name: "f", path: path)]))
        #expect(body.requestBody.contentType == "multipart/form-data; boundary=\(body.boundary.value)")
        #expect(body.requestBody.contentLength == body.contentLength)
        let fileSegments = body.requestBody.segments.compactMap { segment -> Range<Int64>? in
            if case let .file(_, range) = segment { return range }
            return nil
        }
        #expect(fileSegments == [0..<300])
    }
}
