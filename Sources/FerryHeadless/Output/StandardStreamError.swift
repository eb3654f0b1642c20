import Glibc

/// Why writing a ``StandardStream`` (or another ``TextOutput``) failed.
public enum StandardStreamError: Error, Equatable, CustomStringConvertible {
    /// Nothing reads the stream any more (`EPIPE`: the pipe's reader exited or closed it).
    case closed(stream: String)
    /// The write failed for another reason (a full disk behind a redirection, say).
    case failed(stream: String, errno: Int32)

    /// The exit status `ferry` ends with: 141 (128 + SIGPIPE, what a shell reports for a
    /// process the closed pipe killed) when the reader went away, 1 otherwise.
    public var exitStatus: Int32 {
        switch self {
        case .closed: 128 + SIGPIPE
        case .failed: 1
        }
    }

    public var description: String {
        switch self {
        case let .closed(stream):
            "\(stream) was closed by its reader"
        case let .failed(stream, code):
            "cannot write \(stream): \(String(cString: strerror(code)))"
        }
    }
}
