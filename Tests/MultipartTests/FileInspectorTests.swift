import FileSystem
import Foundation
import Multipart
import TestSupport
import Testing

@Suite("Checks before a file part is accepted")
struct FileInspectorTests {
    @Test("a regular file is accepted with its size and its current stamp")
    func regular() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("ok.bin", [1, 2, 3])
        let snapshot = try FileInspector.inspect(path)
        #expect(snapshot.size == 3)
        #expect(snapshot.stamp == FileStamp.current(of: path)?.stamp)
    }

    @Test("a missing file")
    func missing() throws {
        let dir = TemporaryDirectory()
        #expect(throws: MultipartError.fileRejected(path: dir.path + "/nope", reason: .doesNotExist)) {
            try FileInspector.inspect(dir.path + "/nope")
        }
    }

    @Test("a directory")
    func directory() throws {
        let dir = TemporaryDirectory()
        #expect(throws: MultipartError.fileRejected(path: dir.path, reason: .isDirectory)) {
            try FileInspector.inspect(dir.path)
        }
    }

    @Test("a FIFO is rejected without blocking")
    func fifo() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(throws: MultipartError.fileRejected(path: path, reason: .notRegularFile(kind: "FIFO"))) {
            try FileInspector.inspect(path)
        }
    }

    @Test("a socket and a device are rejected")
    func socketAndDevice() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(throws: MultipartError.fileRejected(path: path, reason: .notRegularFile(kind: "socket"))) {
            try FileInspector.inspect(path)
        }
        #expect(throws: MultipartError.fileRejected(path: "/dev/null", reason: .notRegularFile(kind: "character device"))) {
            try FileInspector.inspect("/dev/null")
        }
    }

    @Test("a file this process cannot read")
    func unreadable() throws {
        let dir = TemporaryDirectory()
        var path = try dir.write("secret.txt", [1])
        if getuid() == 0 {
            // root reads any mode-000 file; a write-only sysctl refuses reads even to root.
            path = "/proc/sys/vm/compact_memory"
        } else {
            #expect(chmod(path, 0) == 0)
        }
        #expect(throws: MultipartError.fileRejected(path: path, reason: .notReadable(errno: EACCES))) {
            try FileInspector.inspect(path)
        }
    }

    @Test("a path whose size cannot be determined (a symbolic-link loop)")
    func sizeUnavailable() throws {
        let dir = TemporaryDirectory()
        let a = dir.path + "/a", b = dir.path + "/b"
        #expect(symlink(b, a) == 0)
        #expect(symlink(a, b) == 0)
        #expect(throws: MultipartError.fileRejected(path: a, reason: .sizeUnavailable(errno: ELOOP))) {
            try FileInspector.inspect(a)
        }
    }

    @Test("errors name the file and say what happened")
    func descriptions() {
        #expect(MultipartError.fileRejected(path: "/x/y", reason: .isDirectory).description.hasPrefix("/x/y: is a directory"))
        #expect(MultipartError.fileRejected(path: "/p", reason: .notRegularFile(kind: "FIFO")).description == "/p: is a FIFO, not a regular file")
        #expect(MultipartError.fileRejected(path: "/s", reason: .notReadable(errno: EACCES)).description == "/s: not readable: Permission denied")
    }

    @Test("a bad file among good ones fails alone when each is prepared as its own request")
    func oneBadFileAmongGood() throws {
        let dir = TemporaryDirectory()
        let paths = [try dir.write("a.txt", [1]), dir.path + "/missing.txt", try dir.write("b.txt", [2])]
        let encoder = MultipartEncoder()
        var outcomes: [Bool] = []
        for path in paths {
            var form = MultipartForm()
            form.addFile(name: "file", path: path)
            outcomes.append((try? encoder.prepare(form)) != nil)
        }
        #expect(outcomes == [true, false, true])
    }
}
