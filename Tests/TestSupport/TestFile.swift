import Glibc

/// Writes test files without `fsync`.
///
/// Foundation's `Data.write(to:)` and `FileManager.createFile` end every write with an `fsync`.
/// On a busy disk that holds the calling thread — one of the test runner's few, shared with every
/// in-process server of the suite — in uninterruptible sleep for seconds, and Dispatch adds no
/// thread for one in that state: whole-suite runs saw in-process receivers answer a minute late.
/// Test files need no durability.
public enum TestFile {
    /// Creates or replaces the file at `path` with `bytes` (mode 0644).
    ///
    /// - Parameters:
    ///   - bytes: The content.
    ///   - path: Where.
    /// - Throws: ``TestFailure`` naming the path and `errno` when it cannot be written whole.
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(TestFailure) {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(path) (errno \(errno))") }
        defer { close(descriptor) }
        let content = Array(bytes)
        var written = 0
        while written < content.count {
            let count = content[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw TestFailure("cannot write \(path) (errno \(errno))") }
            written += count
        }
    }
}
