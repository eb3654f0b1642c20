import Glibc

/// Standard output or standard error, written with `write(2)`: partial writes and `EINTR` are
/// retried, and a reader that went away (`ferry send --json | head -1`) is reported as
/// ``StandardStreamError/closed`` instead of trapping, as Foundation's `FileHandle.write` does
/// once `SIGPIPE` is ignored.
public struct StandardStream: TextOutput {
    /// Descriptor 1.
    public static let output = StandardStream(descriptor: STDOUT_FILENO, name: "standard output")
    /// Descriptor 2.
    public static let error = StandardStream(descriptor: STDERR_FILENO, name: "standard error")

    /// The descriptor written to.
    public let descriptor: Int32
    /// What the stream is called in error messages.
    public let name: String

    /// Writes every byte, in order.
    ///
    /// - Parameter bytes: What to write.
    /// - Throws: ``StandardStreamError`` when the reader has gone or the write fails.
    public func write(_ bytes: [UInt8]) throws(StandardStreamError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EPIPE: throw .closed(stream: name)
            case let code: throw .failed(stream: name, errno: code)
            }
        }
    }

    /// Writes text as UTF-8.
    ///
    /// - Parameter text: What to write.
    /// - Throws: ``StandardStreamError`` when the reader has gone or the write fails.
    public func write(_ text: String) throws(StandardStreamError) {
        try write(Array(text.utf8))
    }
}
