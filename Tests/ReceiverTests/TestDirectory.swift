import Foundation

/// A fresh temporary directory for one test, with `uploads/` (the receiver's `--dir`) and
/// `source/` (files to send); ``remove()`` deletes it all.
struct TestDirectory: Sendable {
    /// The temporary directory itself.
    let root: String
    /// Where the receiver saves uploads.
    var uploads: String { root + "/uploads" }
    /// Where tests put the files they send.
    var source: String { root + "/source" }

    /// Creates the directory tree.
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/ferry-receiver-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw TestFailure("mkdtemp failed (errno \(errno))")
        }
        root = URL(fileURLWithPath: String(cString: created)).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: root + "/uploads", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/source", withIntermediateDirectories: true)
    }

    /// Deletes the tree.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The names directly inside `uploads/`, sorted.
    func uploadedNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: uploads).sorted()
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
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The content of a file in `uploads/`.
    func uploadedBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: uploads + "/" + name)))
    }
}
