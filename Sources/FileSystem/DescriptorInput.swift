import Glibc

/// Reading an open file descriptor, or a file, to its end: a `<file` form value, a profiles file,
/// the journal's marks, a document on the standard input.
public enum DescriptorInput {
    /// A read that failed.
    public struct Failure: Error, Equatable {
        /// The C library's error number.
        public let errno: Int32
    }

    /// Every byte of the file at `path` (opened read-only, closed again).
    ///
    /// - Parameter path: The file.
    /// - Returns: The bytes, or the error number of the failed open or read.
    public static func readFile(atPath path: String) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Failure(errno: errno)) }
        defer { close(descriptor) }
        return readToEnd(descriptor)
    }

    /// Every byte from the descriptor's position to its end (reads interrupted by a signal are
    /// made again).
    ///
    /// - Parameter descriptor: An open descriptor; it stays open.
    /// - Returns: The bytes, or the failed read's error number.
    public static func readToEnd(_ descriptor: Int32) -> Result<[UInt8], Failure> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(Failure(errno: errno)) }
            if count == 0 { return .success(bytes) }
            bytes += chunk[..<count]
        }
    }
}
