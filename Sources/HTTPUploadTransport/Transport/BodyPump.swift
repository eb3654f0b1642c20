import Dispatch
import Multipart
import NIOCore
import Synchronization

/// Reads a request body on its own queue, one write ahead of the socket, so an event loop never
/// waits for the disk.
///
/// The connection says at the first `next` how it takes the body: in chunks (`BodyReader`; TLS
/// and HTTP/2, whose handlers need the bytes), or — plain TCP, for a body with a large file —
/// with the file's middle as file regions the kernel sends (`FileRegionReader`, `sendfile`). A
/// body of one chunk, at most `smallBodyLimit`, may be read when the pump is made; a larger one
/// is read from the first `next` on. Results are delivered on the event loop given to `next`.
/// After a file's last region, the next write (its last chunk, which checks it) is read only when
/// asked for, once the region's write completed; region sizes follow how long writes take. The read that reaches
/// the body's end closes the files at once; `close()` releases them otherwise and **must** be
/// called once the exchange ends, however it ends.
final class BodyPump: Sendable {
    private typealias Delivery = @Sendable (Result<IOData?, MultipartError>) -> Void

    private enum Slot: Sendable {
        /// Nothing read ahead and no read running: the next `next` starts one.
        case idle
        case reading
        case ready(Result<IOData?, MultipartError>, readsOn: Bool)
        /// Everything was handed over; the next `next` gets the end at once.
        case ended
        case waiting(any EventLoop, Delivery)
    }

    /// Where the body's writes come from.
    private enum Source: Sendable {
        case chunks(BodyReader)
        case regions(FileRegionReader)
    }

    private struct State: Sendable {
        var slot = Slot.idle
        var source: Source?
        var closed = false
        /// Whether the source reached the body's end (or failed) and was closed: no more reads.
        var exhausted = false
        /// Body bytes not read yet (so a small body gets a small buffer).
        var remaining: Int64
        /// The region handed over last and when: the next `next` comes once its write completed.
        var regionHandedOver: (bytes: Int64, at: ContinuousClock.Instant)?
        /// The size of the regions read next, from how long their writes take.
        var sizing: FileRegionSizing
    }

    private static let readTarget = DispatchQueue(label: "ferry.uploading.body-read", attributes: .concurrent)

    /// The largest file region: large enough that a gigabyte takes a few hundred trips to the
    /// queue, small enough that progress moves several times a second at loopback speed.
    static let maximumRegion: Int64 = 8 * 1024 * 1024

    private let body: RequestBody
    private let chunkSize: Int
    private let queue = DispatchQueue(label: "ferry.uploading.body-pump", target: BodyPump.readTarget)
    private let state: Mutex<State>

    /// The largest body `init` reads at once when asked to (`readsSmallBodyNow`).
    static let smallBodyLimit: Int64 = 64 * 1024

    /// Prepares the body; a small one is read at once when asked to.
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - chunkSize: The most bytes per chunk (and per buffer beside file regions).
    ///   - readsSmallBodyNow: Whether a body of one chunk, at most `smallBodyLimit`, is read
    ///     here, on the caller's thread, rather than on the pump's queue: the caller has just
    ///     inspected its files, and a small file then costs no thread hop. The caller may be an
    ///     event loop only for files on a local file system (`UploadTransport.startsFromAnyThread`).
    init(body: RequestBody, chunkSize: Int, readsSmallBodyNow: Bool) {
        self.body = body
        self.chunkSize = chunkSize
        self.state = Mutex(State(remaining: body.contentLength, sizing: FileRegionSizing(
            minimum: Int64(chunkSize), maximum: max(Int64(chunkSize), Self.maximumRegion))))
        if readsSmallBodyNow, body.contentLength <= min(Self.smallBodyLimit, Int64(chunkSize)) {
            let reader = body.makeReader(chunkSize: chunkSize)
            state.withLock { $0.source = .chunks(reader) }
            let (result, exhausted) = readChunk(reader)
            if exhausted { reader.close() }
            state.withLock { state in
                state.slot = .ready(result.map { $0.map(IOData.byteBuffer) }, readsOn: true)
                state.exhausted = exhausted
            }
        }
    }

    /// Delivers the next write (nil at the end of the body) on `loop`. **Must** be called on
    /// `loop`, and not again before `deliver` ran; a file region delivered is the receiver's to
    /// close (`IOData.closeFileHandle()`).
    ///
    /// - Parameters:
    ///   - loop: Where `deliver` runs.
    ///   - fileRegions: Whether the connection takes file regions (plain TCP); the first call
    ///     decides for the whole body.
    ///   - deliver: Receives the write, the end, or the read error.
    func next(on loop: any EventLoop, fileRegions: Bool,
              _ deliver: @escaping @Sendable (Result<IOData?, MultipartError>) -> Void) {
        let now = ContinuousClock.now
        let (ready, startsRead): (Result<IOData?, MultipartError>?, Bool) = state.withLock { state in
            guard !state.closed else { return (nil, false) }
            if let (bytes, at) = state.regionHandedOver {
                state.sizing.regionWritten(bytes, in: now - at)
                state.regionHandedOver = nil
            }
            if state.source == nil {
                state.source = fileRegions && FileRegionCursor.hasRegions(body.segments, bufferSize: chunkSize)
                    ? .regions(FileRegionReader(segments: body.segments, bufferSize: chunkSize))
                    : .chunks(body.makeReader(chunkSize: chunkSize))
            }
            switch state.slot {
            case let .ready(result, readsOn):
                let readsAhead = readsOn && !state.exhausted
                state.slot = state.exhausted ? .ended : (readsAhead ? .reading : .idle)
                state.regionHandedOver = Self.region(in: result).map { ($0, now) }
                return (result, readsAhead)
            case .ended:
                return (.success(nil), false)
            case .idle:
                state.slot = .waiting(loop, deliver)
                return (nil, true)
            case .reading, .waiting:
                state.slot = .waiting(loop, deliver)
                return (nil, false)
            }
        }
        if startsRead { readAhead() }
        if let ready { deliver(ready) }
    }

    /// Stops reading and closes the body's files (after a read in progress, if any), and a file
    /// region read ahead.
    func close() {
        let (source, unsent): (Source?, Result<IOData?, MultipartError>?) = state.withLock { state in
            defer { state.closed = true }
            guard !state.closed else { return (nil, nil) }
            var unsent: Result<IOData?, MultipartError>?
            if case let .ready(result, _) = state.slot { unsent = result }
            state.slot = .ended
            return (state.exhausted ? nil : state.source, unsent)
        }
        if case let .success(data?)? = unsent { data.closeFileHandle() }
        guard let source else { return }
        queue.async {
            switch source {
            case let .chunks(reader): reader.close()
            case let .regions(reader): reader.close()
            }
        }
    }

    private func readAhead() {
        queue.async {
            guard let source = self.state.withLock({ $0.source }) else { return }
            let (result, exhausted, readsOn) = self.read(source)
            let waiting: (any EventLoop, Delivery)?? = self.state.withLock { state in
                state.exhausted = exhausted
                guard !state.closed else { return .none }
                if case let .waiting(loop, deliver) = state.slot {
                    state.slot = exhausted ? .ended : (readsOn ? .reading : .idle)
                    state.regionHandedOver = Self.region(in: result).map { ($0, .now) }
                    return (loop, deliver)
                }
                state.slot = .ready(result, readsOn: readsOn)
                return .some(nil)
            }
            guard let waiting else {
                // Closed meanwhile: a region read is nobody else's to close.
                if case let .success(data?) = result { data.closeFileHandle() }
                return
            }
            guard let (loop, deliver) = waiting else { return }
            if !exhausted, readsOn { self.readAhead() }
            loop.execute { deliver(result) }
        }
    }

    /// The length of a region read, nil for anything else.
    private static func region(in result: Result<IOData?, MultipartError>) -> Int64? {
        guard case let .success(.fileRegion(region)?) = result else { return nil }
        return Int64(region.readableBytes)
    }

    /// Reads the next write from `source`; `exhausted` when no read should follow (the end, or an
    /// error), `readsOn` false after a file's last region (the next is read when asked for).
    private func read(_ source: Source) -> (result: Result<IOData?, MultipartError>, exhausted: Bool, readsOn: Bool) {
        switch source {
        case let .chunks(reader):
            let (result, exhausted) = readChunk(reader)
            if exhausted { reader.close() }
            return (result.map { $0.map(IOData.byteBuffer) }, exhausted, true)
        case let .regions(reader):
            do throws(MultipartError) {
                let (data, readsAhead) = try reader.next(regionSize: state.withLock { $0.sizing.size })
                if data == nil { reader.close() }
                return (.success(data), data == nil, readsAhead)
            } catch {
                return (.failure(error), true, true)
            }
        }
    }

    /// Reads the next chunk; `exhausted` when no read should follow (the end, or an error).
    private func readChunk(_ reader: BodyReader) -> (result: Result<ByteBuffer?, MultipartError>, exhausted: Bool) {
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
