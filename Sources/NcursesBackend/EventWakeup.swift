import Glibc
import TerminalUI

/// The ncurses terminal's waker: a non-blocking pipe whose read end
/// ``NcursesTerminal/readKey(timeoutMilliseconds:)`` polls together with the terminal. Writing to it is async-signal-safe, so the signal handlers
/// (a resize, `fg`, a termination signal) wake the loop through it too, whichever thread the
/// kernel delivered the signal to.
final class EventWakeup: TerminalWaking {
    /// The pipe's read end, polled; -1 if the kernel refused a pipe (the loop then waits out
    /// its timeouts, as it did before).
    let descriptor: Int32
    /// The pipe's write end, written to wake.
    let writeDescriptor: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        } else {
            ends = [-1, -1]
        }
        descriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    func wake() {
        Self.wake(writeDescriptor)
    }

    /// Writes a byte to a waker's pipe (a full pipe is awake already); async-signal-safe.
    ///
    /// - Parameter descriptor: The pipe's write end, or -1 for none.
    static func wake(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// Empties the pipe (after a wait it ended).
    func drain() {
        guard descriptor >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
