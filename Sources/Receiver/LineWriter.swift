import Dispatch
import Synchronization
import Glibc

/// Writes whole lines to a file descriptor, in order, unbuffered: what `ferry serve` uses for
/// its standard output (the URL line, then one JSON ``RequestLog`` per request).
///
/// Lines are written by one serial queue (`ferry.receiver.output`), so they never interleave and
/// a reader that is slow to drain the pipe never blocks a request. Should the reader stop
/// draining altogether, at most ``maximumBacklog`` lines wait and later ones are dropped.
/// The backlog count lives in a `Mutex`, so the writer is `Sendable`.
public final class LineWriter: Sendable {
    /// A writer for standard output (descriptor 1).
    public static let standardOutput = LineWriter(fileDescriptor: 1)
    /// A writer for standard error (descriptor 2).
    public static let standardError = LineWriter(fileDescriptor: 2)
    /// The most lines waiting to be written before new ones are dropped.
    public static let maximumBacklog = 10_000

    private let fileDescriptor: Int32
    private let queue = DispatchQueue(label: "ferry.receiver.output")
    private let backlog = Mutex(0)

    /// Creates a writer for an open descriptor it does not own.
    ///
    /// - Parameter fileDescriptor: Where lines go.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Queues `text` and a newline for writing; write errors (such as a closed pipe) are ignored.
    ///
    /// - Parameter text: One line, without its newline.
    public func writeLine(_ text: String) {
        let admitted = backlog.withLock { count in
            guard count < Self.maximumBacklog else { return false }
            count += 1
            return true
        }
        guard admitted else { return }
        let bytes = Array((text + "\n").utf8)
        queue.async {
            self.writeNow(bytes)
            self.backlog.withLock { $0 -= 1 }
        }
    }

    /// Queues one request log entry as a JSON line.
    ///
    /// - Parameter entry: The entry.
    public func writeLine(_ entry: RequestLog) {
        writeLine(JSONBody.encode(entry))
    }

    /// Waits until every queued line is written.
    public func flush() {
        queue.sync {}
    }

    private func writeNow(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
