import Foundation
import FileSystem
import TestSupport
import Testing

@Suite("FileStamp: the one check of whether a file changed")
struct FileStampTests {
    private static let identity = FileIdentity(device: 1, inode: 2)
    private static let recorded = FileStamp(size: 10, modificationTimeNanoseconds: 100, identity: identity)

    @Test("what changed, checked in order: identity, size, modification time", arguments: [
        (FileStamp(size: 10, modificationTimeNanoseconds: 100, identity: identity), nil),
        (FileStamp(size: 10, modificationTimeNanoseconds: 100, identity: nil), nil),
        (FileStamp(size: 11, modificationTimeNanoseconds: 101, identity: FileIdentity(device: 1, inode: 3)), .replaced),
        (FileStamp(size: 10, modificationTimeNanoseconds: 100, identity: FileIdentity(device: 9, inode: 2)), .replaced),
        (FileStamp(size: 11, modificationTimeNanoseconds: 101, identity: identity), .sizeChanged(expected: 10, actual: 11)),
        (FileStamp(size: 10, modificationTimeNanoseconds: 101, identity: nil), .modified),
    ] as [(FileStamp, FileChange?)])
    func change(now: FileStamp, expected: FileChange?) {
        #expect(Self.recorded.change(to: now) == expected)
    }

    @Test("a stamp without identity compares size and modification time only")
    func withoutIdentity() {
        let listed = FileStamp(size: 10, modificationTimeNanoseconds: 100)
        #expect(listed.change(to: FileStamp(size: 10, modificationTimeNanoseconds: 100, identity: Self.identity)) == nil)
        #expect(listed.change(to: FileStamp(size: 10, modificationTimeNanoseconds: 5)) == .modified)
    }

    @Test("the current stamp of a file, a folder and a missing path")
    func current() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("a.bin", [1, 2, 3])
        let file = try #require(FileStamp.current(of: path))
        #expect(file.isRegularFile)
        #expect(file.stamp.size == 3)
        #expect(file.stamp.identity != nil)
        #expect(FileStamp.current(of: dir.path)?.isRegularFile == false)
        #expect(FileStamp.current(of: dir.path + "/missing") == nil)
    }

    @Test("a file replaced by another with the same size and time is seen as replaced")
    func replacedSameSizeAndTime() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("a.bin", [1, 2, 3])
        let before = try #require(FileStamp.current(of: path)).stamp
        let other = try dir.write("b.bin", [4, 5, 6])
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(utimensat(AT_FDCWD, other, &times, 0) == 0)
        let touched = try #require(FileStamp.current(of: path)).stamp
        #expect(rename(other, path) == 0)
        let now = try #require(FileStamp.current(of: path)).stamp
        #expect(now.size == touched.size && now.modificationTimeNanoseconds == touched.modificationTimeNanoseconds)
        #expect(touched.change(to: now) == .replaced)
        #expect(before.change(to: touched) == .modified)
    }
}
