import Foundation
import Multipart
import TestSupport
import Testing

@Suite("Streaming: chunking, length, re-reading")
struct StreamingTests {
    @Test("chunk sizes 1, 7, 64 KiB and 1 MiB give identical bytes whose count is the declared length")
    func chunkSizesAgree() throws {
        let dir = TemporaryDirectory()
        let big = try dir.write("big.bin", pseudoRandomBytes(count: 300_000, seed: 1))
        let small = try dir.write("small.txt", Array("tiny".utf8))
        var form = MultipartForm()
        form.addText(name: "a", value: "line1\nline2")
        form.addFile(name: "big", path: big)
        form.addFile(name: "small", path: small)
        form.parts.append(.file(name: "mem", filename: "m.bin", bytes: pseudoRandomBytes(count: 5000, seed: 2)))
        let body = try MultipartEncoder(boundary: try Boundary("b0undary")).prepare(form)
        let reference = try collect(body, chunkSize: 1)
        #expect(Int64(reference.count) == body.contentLength)
        for size in [7, 64 * 1024, 1024 * 1024] {
            #expect(try collect(body, chunkSize: size) == reference, "chunk size \(size)")
        }
    }

    @Test("a body can be produced again from the start, as a retry does")
    func reproducible() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("f.bin", pseudoRandomBytes(count: 100_000, seed: 3))
        var form = MultipartForm()
        form.addFile(name: "f", path: path)
        let body = try MultipartEncoder().prepare(form)
        let first = try collect(body)
        let partial = body.makeReader(chunkSize: 1000)
        _ = try partial.nextChunk()
        partial.close()
        #expect(try collect(body) == first)
    }

    @Test("the length is known without reading files and the reader counts what it produced")
    func lengthFromSizes() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("sparse.bin", bytes: 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 5 << 30)
        try handle.close()
        var form = MultipartForm()
        form.addFile(name: "f", path: path)
        let body = try MultipartEncoder(boundary: try Boundary("B")).prepare(form)
        let overhead = "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"sparse.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n".utf8.count
        #expect(body.contentLength == Int64(5 << 30) + Int64(overhead))
        let reader = body.makeReader(chunkSize: 4096)
        _ = try reader.nextChunk()
        #expect(reader.bytesProduced == 4096)
    }

    @Test("read(into:) fills the caller's buffer completely until the end")
    func readIntoBuffer() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("f.bin", pseudoRandomBytes(count: 10_000, seed: 4))
        var form = MultipartForm()
        form.addFile(name: "f", path: path)
        let body = try MultipartEncoder().prepare(form)
        let reader = body.makeReader()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var counts: [Int] = []
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            counts.append(count)
        }
        #expect(counts.dropLast().allSatisfy { $0 == 4096 })
        #expect(Int64(counts.reduce(0, +)) == body.contentLength)
    }
}
