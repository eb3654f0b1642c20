import Foundation
import Multipart
@testable import Uploading

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-uploading-tests-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file and returns its path.
    @discardableResult
    func file(_ name: String, bytes: Int = 100, fill: UInt8 = 0x61) -> String {
        let filePath = (path as NSString).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: filePath, contents: Data(repeating: fill, count: bytes))
        return filePath
    }

    /// Writes a file whose name is the given bytes (not necessarily UTF-8), with open(2) on the
    /// raw path, and returns its path as `FileSystemName` decodes it.
    @discardableResult
    func file(rawName: [UInt8], bytes: Int = 100, fill: UInt8 = 0x61) -> String {
        let raw = Array(path.utf8) + [0x2F] + rawName
        let descriptor = open((raw + [0]).map { CChar(bitPattern: $0) }, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot create \(raw)")
        let content = [UInt8](repeating: fill, count: bytes)
        precondition(content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes)
        close(descriptor)
        return FileSystemName.decode(raw)
    }

    /// A path inside the directory (nothing is created).
    func path(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }
}

enum Fixtures {
    /// A spec sending one file to a test URL.
    static func spec(_ path: String, url: String = "http://127.0.0.1:9/upload") -> UploadJobSpec {
        UploadJobSpec(url: url, files: [QueuedFile.capture(path: path)])
    }

    /// A spec whose file is only a name (for pure state-machine tests).
    static func spec(named name: String) -> UploadJobSpec {
        UploadJobSpec(url: "http://example.test/upload", files: [QueuedFile(path: name, size: 1000, modificationTimeNanoseconds: 1)])
    }

    /// A job with a spec from `spec(named:)`.
    static func job(_ id: Int64, state: UploadJobState = .queued) -> UploadJob {
        UploadJob(id: UploadJobID(id), spec: spec(named: "file\(id).bin"), state: state)
    }

    static func at(_ milliseconds: Int64) -> SchedulerInstant {
        SchedulerInstant(nanoseconds: milliseconds * 1_000_000)
    }

    /// A wall-clock time `milliseconds` after a fixed origin (2026-01-01 00:00:00 UTC).
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: 1_767_225_600 + Double(milliseconds) / 1000)
    }
}
