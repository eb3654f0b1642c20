import FileSystem
import Foundation
import Multipart
import TestSupport
import Testing
import UploadModel
import UploadProtocols

@Suite("A queued file's stamp: recorded when queued, compared when sent, kept by the journal")
struct QueuedFileTests {
    @Test("a captured file records its identity, and a file replaced since counts as changed")
    func replacedSinceQueued() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("a.bin", [1, 2, 3])
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let queued = QueuedFile.capture(path: path)
        #expect(queued.stamp?.identity != nil)
        #expect(!queued.hasChangedSinceQueued())
        let other = try dir.write("b.bin", [7, 8, 9])
        #expect(utimensat(AT_FDCWD, other, &times, 0) == 0)
        #expect(rename(other, path) == 0)
        #expect(queued.hasChangedSinceQueued())
        #expect(throws: UploadError.fileChangedSinceQueued(path: path)) {
            try FormBuilder().message(for: UploadJobSpec(url: "http://127.0.0.1:9/upload", files: [queued]))
        }
    }

    @Test("a listed file (no identity) and a file queued without a stamp")
    func withoutIdentityOrStamp() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("a.bin", [1, 2, 3])
        let captured = QueuedFile.capture(path: path)
        let listed = QueuedFile(path: path, size: captured.size, modificationTimeNanoseconds: captured.modificationTimeNanoseconds)
        #expect(listed.stamp?.identity == nil)
        #expect(!listed.hasChangedSinceQueued())
        let unknown = QueuedFile(path: path, size: nil, modificationTimeNanoseconds: nil)
        #expect(unknown.hasChanged(comparedTo: try #require(captured.stamp)))
        #expect(QueuedFile.capture(path: dir.path).stamp == nil)
    }

    @Test("the journal's JSON keeps the identity, and reads rows written without one")
    func codable() throws {
        let stamped = QueuedFile(path: "p", stamp: FileStamp(size: 5, modificationTimeNanoseconds: -7,
                                                          identity: FileIdentity(device: UInt64.max, inode: 42)))
        let decoded = try JSONDecoder().decode(QueuedFile.self, from: JSONEncoder().encode(stamped))
        #expect(decoded == stamped)
        let older = #"{"path":"p","size":5,"modificationTimeNanoseconds":-7}"#
        let read = try JSONDecoder().decode(QueuedFile.self, from: Data(older.utf8))
        #expect(read == QueuedFile(path: "p", size: 5, modificationTimeNanoseconds: -7))
        #expect(read.stamp?.identity == nil)
    }
}
