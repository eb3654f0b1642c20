import Foundation
import Multipart
import TestSupport
import Testing

@Suite("Files that change while or after the body is prepared")
struct FileChangeTests {
    private func prepared(_ dir: TemporaryDirectory, size: Int) throws -> (path: String, body: MultipartBody) {
        let path = try dir.write("f.bin", pseudoRandomBytes(count: size, seed: 9))
        var form = MultipartForm()
        form.addFile(name: "f", path: path)
        return (path, try MultipartEncoder().prepare(form))
    }

    private func drain(_ reader: BodyReader) throws {
        while try reader.nextChunk() != nil {}
    }

    @Test("a file that shrinks mid-stream fails the stream")
    func shrinksMidStream() throws {
        let dir = TemporaryDirectory()
        let (path, body) = try prepared(dir, size: 200_000)
        let reader = body.makeReader(chunkSize: 50_000)
        _ = try reader.nextChunk()
        #expect(truncate(path, 60_000) == 0)
        #expect(throws: MultipartError.fileChanged(path: path, reason: .shrank(expected: 200_000, read: 60_000))) {
            try drain(reader)
        }
        #expect(reader.bytesProduced < body.contentLength)
    }

    @Test("a file that grows mid-stream fails the stream at its end")
    func growsMidStream() throws {
        let dir = TemporaryDirectory()
        let (path, body) = try prepared(dir, size: 200_000)
        let reader = body.makeReader(chunkSize: 50_000)
        _ = try reader.nextChunk()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 1000))
        try handle.close()
        #expect(throws: MultipartError.fileChanged(path: path, reason: .grew(expected: 200_000, actual: 201_000))) {
            try drain(reader)
        }
    }

    @Test("a file whose size changed before streaming fails before any of its bytes")
    func changedBeforeStreaming() throws {
        let dir = TemporaryDirectory()
        let (path, body) = try prepared(dir, size: 1000)
        try dir.write("f.bin", [1, 2, 3])
        #expect(throws: MultipartError.fileChanged(path: path, reason: .sizeChanged(expected: 1000, actual: 3))) {
            try drain(body.makeReader())
        }
    }

    @Test("a file that vanished fails with replaced")
    func vanished() throws {
        let dir = TemporaryDirectory()
        let (path, body) = try prepared(dir, size: 1000)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: MultipartError.fileChanged(path: path, reason: .replaced)) { try drain(body.makeReader()) }
    }

    @Test("a file rewritten with the same size but a new modification time fails")
    func modified() throws {
        let dir = TemporaryDirectory()
        let (path, body) = try prepared(dir, size: 1000)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(throws: MultipartError.fileChanged(path: path, reason: .modified)) { try drain(body.makeReader()) }
    }
}
