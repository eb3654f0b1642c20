import Dispatch
import Multipart
import NIOCore
import Synchronization

/// Reads a request body in chunks on its own queue, one chunk ahead of the socket, so an event
/// loop never waits for the disk.
///
/// Reading starts when the pump is made (while a connection is being found); `next` hands over
/// the chunk read ahead and starts reading the following one. Results are delivered on the event
/// loop given to `next`. The read that reaches the body's end closes the files at once, so a
/// small body costs one hop to the pump's queue; `close()` releases them otherwise and **must**
/// be called once the exchange ends, however it ends.
final class BodyPump: Sendable {
    private enum Slot: Sendable {
        case reading
        case ready(Result<ByteBuffer?, MultipartError>)
        /// Everything was handed over; the next `next` gets the end at once.
        case ended
        case waiting(any EventLoop, @Sendable (Result<ByteBuffer?, MultipartError>) -> Void)
    }

    private struct State: Sendable {
        var slot = Slot.reading
        var closed = false
        /// Whether the reader reached the body's end (or failed) and was closed: no more reads.
        var exhausted = false
        /// Body bytes not read yet (so a small body gets a small buffer).
        var remaining: Int64
    }

    private static let readTarget = DispatchQueue(label: "ferry.uploading.body-read", attributes: .concurrent)

    private let reader: BodyReader
    private let chunkSize: Int
    private let queue = DispatchQueue(label: "ferry.uploading.body-pump", target: BodyPump.readTarget)
    private let state: Mutex<State>

    /// The largest body `init` reads at once when asked to (`readsSmallBodyNow`).
    static let smallBodyLimit: Int64 = 64 * 1024

    /// Opens a reader on `body` and starts reading its first chunk.
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - chunkSize: The most bytes per chunk.
    ///   - readsSmallBodyNow: Whether a body of one chunk, at most `smallBodyLimit`, is read
    ///     here, on the caller's thread (never an event loop), rather than on the pump's queue:
    ///     the caller has just inspected its files, and a small file then costs no thread hop.
    init(body: RequestBody, chunkSize: Int, readsSmallBodyNow: Bool) {
        self.reader = body.makeReader(chunkSize: chunkSize)
        self.chunkSize = chunkSize
        self.state = Mutex(State(remaining: body.contentLength))
        if readsSmallBodyNow, body.contentLength <= min(Self.smallBodyLimit, Int64(chunkSize)) {
            let (result, exhausted) = readChunk()
            if exhausted { reader.close() }
            state.withLock { state in
                state.slot = .ready(result)
                state.exhausted = exhausted
            }
        } else {
            readAhead()
        }
    }

    /// Delivers the next chunk (nil at the end of the body) on `loop`. **Must** be called on
    /// `loop`, and not again before `deliver` ran.
    ///
    /// - Parameters:
    ///   - loop: Where `deliver` runs.
    ///   - deliver: Receives the chunk, the end, or the read error.
    func next(on loop: any EventLoop, _ deliver: @escaping @Sendable (Result<ByteBuffer?, MultipartError>) -> Void) {
        let (ready, readsOn): (Result<ByteBuffer?, MultipartError>?, Bool) = state.withLock { state in
            guard !state.closed else { return (nil, false) }
            switch state.slot {
            case let .ready(result):
                state.slot = state.exhausted ? .ended : .reading
                return (result, !state.exhausted)
            case .ended:
                return (.success(nil), false)
            case .reading, .waiting:
                state.slot = .waiting(loop, deliver)
                return (nil, false)
            }
        }
        guard let ready else { return }
        if readsOn { readAhead() }
        deliver(ready)
    }

    /// Stops reading and closes the body's files (after a read in progress, if any).
    func close() {
        let readerOpen = state.withLock { state in
            defer { state.closed = true }
            return !state.closed && !state.exhausted
        }
        guard readerOpen else { return }
        queue.async { self.reader.close() }
    }

    private func readAhead() {
        queue.async {
            let (result, exhausted) = self.readChunk()
            if exhausted { self.reader.close() }
            let waiting: (any EventLoop, @Sendable (Result<ByteBuffer?, MultipartError>) -> Void)? = self.state.withLock { state in
                state.exhausted = exhausted
                guard !state.closed else { return nil }
                if case let .waiting(loop, deliver) = state.slot {
                    state.slot = exhausted ? .ended : .reading
                    return (loop, deliver)
                }
                state.slot = .ready(result)
                return nil
            }
            guard let (loop, deliver) = waiting else { return }
            if !exhausted { self.readAhead() }
            loop.execute { deliver(result) }
        }
    }

    /// Reads the next chunk; `exhausted` when no read should follow (the end, or an error).
    private func readChunk() -> (result: Result<ByteBuffer?, MultipartError>, exhausted: Bool) {
        let size = Int(max(1, min(Int64(chunkSize), state.withLock { $0.remaining })))
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        do throws(MultipartError) {
            let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) {
                (space: UnsafeMutableRawBufferPointer) throws(MultipartError) -> Int in
                try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: space.prefix(size)))
            }
            let remaining = state.withLock { state in
                state.remaining -= Int64(count)
                return state.remaining
            }
            if count > 0, remaining <= 0 {
                // The last bytes: read on to the body's end now, so the reader's final check
                // (a file that changed while it was read) decides before the last chunk goes out.
                var scratch: UInt8 = 0
                _ = try withUnsafeMutableBytes(of: &scratch) { (space) throws(MultipartError) -> Int in
                    try reader.read(into: space)
                }
            }
            return (.success(count == 0 ? nil : buffer), count == 0 || remaining <= 0)
        } catch {
            return (.failure(error), true)
        }
    }
}
