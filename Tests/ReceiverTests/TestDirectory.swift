import Foundation
import TestSupport

/// The layout of one receiver test in a fresh ``TemporaryDirectory``: `uploads/` (the
/// receiver's `--dir`) and `source/` (files to send); ``remove()`` deletes it all.
struct TestDirectory: Sendable {
    private let directory = TemporaryDirectory()
    /// The temporary directory itself.
    var root: String { directory.path }
    /// Where the receiver saves uploads.
    var uploads: String { root + "/uploads" }
    /// Where tests put the files they send.
    var source: String { root + "/source" }

    /// Creates the directory tree.
    init() throws {
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
    }

    /// Deletes the tree (before the last copy of this value goes, which would delete it too).
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The names directly inside `uploads/`, sorted, without the receiver's hidden staging
    /// folders (no upload's name starts with a dot).
    func uploadedNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: uploads).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The files of multipart uploads still arriving: the names in `uploads/.ferry-partial`.
    func stagedNames() throws -> [String] {
        let staging = uploads + "/.ferry-partial"
        guard FileManager.default.fileExists(atPath: staging) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: staging).sorted()
    }

    /// The names directly inside the root (to prove nothing escaped `uploads/`), sorted.
    func rootNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root).sorted()
    }

    /// Writes a source file and returns its path.
    ///
    /// - Parameters:
    ///   - name: The file name inside `source/`.
    ///   - bytes: The content.
    /// - Returns: The absolute path.
    @discardableResult
    func writeSource(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = source + "/" + name
        try TestFile.write(bytes, to: path)
        return path
    }

    /// The content of a file in `uploads/`.
    func uploadedBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: uploads + "/" + name)))
    }
}
