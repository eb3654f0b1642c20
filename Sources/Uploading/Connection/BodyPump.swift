import Dispatch
import Multipart
import NIOCore
import Synchronization

/// Reads a request body in chunks on its own queue, one chunk ahead of the socket, so an event
/// loop never waits for the disk.
///
/// Reading starts when the pump is made (while a connection is being found); `next` hands over
/// the chunk read ahead and starts reading the following one. Results are delivered on the event
/// loop given to `next`. `close()` releases the files; it **must** be called once the exchange
/// ends, however it ends.
final class BodyPump: Sendable {
    private enum Slot: Sendable {
        case reading
        case ready(Result<ByteBuffer?, MultipartError>)
        case waiting(any EventLoop, @Sendable (Result<ByteBuffer?, MultipartError>) -> Void)
    }

    private struct State: Sendable {
        var slot = Slot.reading
        var closed = false
        /// Body bytes not read yet (so a small body gets a small buffer).
        var remaining: Int64
    }

    private static let readTarget = DispatchQueue(label: "ferry.uploading.body-read", attributes: .concurrent)

    private let reader: MultipartBodyReader
    private let chunkSize: Int
    private let queue = DispatchQueue(label: "ferry.uploading.body-pump", target: BodyPump.readTarget)
    private let state: Mutex<State>

    /// Opens a reader on `body` and starts reading its first chunk.
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - chunkSize: The most bytes per chunk.
    init(body: MultipartBody, chunkSize: Int) {
        self.reader = body.makeReader(chunkSize: chunkSize)
        self.chunkSize = chunkSize
        self.state = Mutex(State(remaining: body.contentLength))
        readAhead()
    }

    /// Delivers the next chunk (nil at the end of the body) on `loop`. **Must** be called on
    /// `loop`, and not again before `deliver` ran.
    ///
    /// - Parameters:
    ///   - loop: Where `deliver` runs.
    ///   - deliver: Receives the chunk, the end, or the read error.
    func next(on loop: any EventLoop, _ deliver: @escaping @Sendable (Result<ByteBuffer?, MultipartError>) -> Void) {
        let ready: Result<ByteBuffer?, MultipartError>? = state.withLock { state in
            guard !state.closed else { return nil }
            if case let .ready(result) = state.slot {
                state.slot = .reading
                return result
            }
            state.slot = .waiting(loop, deliver)
            return nil
        }
        guard let ready else { return }
        if case .success(.some) = ready { readAhead() }
        deliver(ready)
    }

    /// Stops reading and closes the body's files (after a read in progress, if any).
    func close() {
        let first = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        queue.async { self.reader.close() }
    }

    private func readAhead() {
        queue.async {
            let result = self.readChunk()
            let waiting: (any EventLoop, @Sendable (Result<ByteBuffer?, MultipartError>) -> Void)? = self.state.withLock { state in
                guard !state.closed else { return nil }
                if case let .waiting(loop, deliver) = state.slot {
                    state.slot = .reading
                    return (loop, deliver)
                }
                state.slot = .ready(result)
                return nil
            }
            guard let (loop, deliver) = waiting else { return }
            if case .success(.some) = result { self.readAhead() }
            loop.execute { deliver(result) }
        }
    }

    private func readChunk() -> Result<ByteBuffer?, MultipartError> {
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
            return .success(count == 0 ? nil : buffer)
        } catch {
            return .failure(error)
        }
    }
}
