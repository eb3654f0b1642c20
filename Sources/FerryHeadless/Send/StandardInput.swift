#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's standard input, read whole (a document given as `-`).
public enum StandardInput {
    /// Every byte up to the end of the input.
    ///
    /// - Returns: The bytes.
    /// - Throws: ``StandardInputError`` when a read fails.
    public static func readAll() throws(StandardInputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw StandardInputError(errno: errno) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
