import Crypto
import Dispatch
import FileSystem
import NIOCore
import NIOPosix
import Synchronization
import Glibc

/// Writes one PATCH's bytes into an upload's staged file at its offset, gathering
/// ``PartFileWriter/flushThreshold`` bytes at a time (256 KiB); a body buffer that large on its
/// own (a connection's reads grow to 256 KiB, ``ReceiveBufferSizing``) is taken as it is, uncopied.
///
/// Each such chunk goes three ways at once: written with `pwrite` on the thread pool, and fed to
/// the PATCH's `Upload-Checksum` and to the upload's running SHA-256, each hash on a serial queue
/// of its own (``HashLane``) that takes the chunks in file order (one hash for both when they are
/// the same: an `sha256` checksum of a PATCH at 0). So reading the body, writing and both hashes
/// run side by side, none waiting for another; up to ``window`` chunks are in flight, which keeps
/// memory constant whatever the body's size. The open file holds one of the server's
/// ``UploadSlots`` from ``open(in:id:at:pool:checksum:digest:slots:)`` until it is closed.
///
/// Not thread-safe: one request's task owns it and **must** call either ``close()`` (after
/// ``drain()``) or ``discard()`` exactly once.
final class TusPatchWriter {
    /// What a PATCH's written bytes came to.
    struct Written {
        /// How many bytes were written at the offset.
        var count: Int64
        /// Whether they match the PATCH's `Upload-Checksum` (`true` when it has none).
        var checksumMatches: Bool
        /// The upload's SHA-256 from 0 through them, when the writer was given the one before.
        var digest: SHA256?
    }

    /// How many chunks may be in flight at once: 1 MiB of 256 KiB chunks.
    static let window = 4

    /// Bytes handed to writes so far (written, or in flight).
    private var size: Int64 = 0
    private let staging: TusStaging
    private let id: String
    private let startOffset: Int64
    private var descriptor: Int32?
    private var pending: ByteBuffer
    private let pool: NIOThreadPool
    /// Given back the slot of the open file as it is closed.
    private let slots: UploadSlots
    private let chunks = ChunksInFlight(window: TusPatchWriter.window)
    /// The PATCH's `Upload-Checksum`, if it has one.
    private let checksum: HashLane<TusChecksumHasher>?
    /// The upload's bytes from 0, if they are known from 0 and the checksum's hash is not them.
    private let digest: HashLane<SHA256>?
    /// Whether the checksum's SHA-256 is the upload's digest too (an `sha256` checksum of a PATCH
    /// at 0 hashes the same bytes from the same start), so each byte is hashed once.
    private let digestIsChecksum: Bool

    private init(staging: TusStaging, id: String, offset: Int64, descriptor: Int32, pool: NIOThreadPool, slots: UploadSlots,
                 checksum: TusChecksum?, digest: SHA256?) {
        self.staging = staging
        self.id = id
        self.startOffset = offset
        self.descriptor = descriptor
        self.pool = pool
        self.slots = slots
        self.checksum = checksum.map { HashLane(TusChecksumHasher(checking: $0), label: "ferry.receiver.tus-checksum") { $0.update($1) } }
        digestIsChecksum = offset == 0 && digest != nil && checksum?.algorithm == .sha256
        self.digest = digestIsChecksum ? nil : digest.map {
            HashLane($0, label: "ferry.receiver.tus-digest") { hasher, buffer in
                buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            }
        }
        self.pending = ByteBufferAllocator().buffer(capacity: PartFileWriter.flushThreshold)
    }

    /// Opens an upload's staged file to write at `offset`, taking one of `slots` for it.
    ///
    /// - Parameters:
    ///   - staging: The staging folder.
    ///   - id: The upload's ID.
    ///   - offset: Where the PATCH's bytes go (the upload's offset).
    ///   - pool: The thread pool that runs the blocking calls.
    ///   - checksum: The PATCH's `Upload-Checksum`, if it has one.
    ///   - digest: The SHA-256 of the upload's bytes before `offset`, if known.
    ///   - slots: The server's upload slots; the file holds one while it is open.
    /// - Returns: The writer.
    /// - Throws: ``ReceiverError/RequestRejectionReason/tooManyUploads(limit:)`` when no slot is
    ///   free, ``ReceiverError/storageFailed(reason:)`` when the file cannot be opened.
    static func open(in staging: TusStaging, id: String, at offset: Int64, pool: NIOThreadPool,
                     checksum: TusChecksum?, digest: SHA256?, slots: UploadSlots) async throws(ReceiverError) -> TusPatchWriter {
        guard slots.acquire() else { throw .requestRejected(reason: .tooManyUploads(limit: slots.limit)) }
        let path = staging.dataPath(id)
        let opened: Result<Int32, ReceiverError> = await pool.runBlocking {
            let descriptor = FileSystemName.withFileSystemPath(path) { Glibc.open($0, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
            return descriptor >= 0 ? .success(descriptor) : .failure(.storage(errno: errno, name: id + ".part", creating: false))
        }
        switch opened {
        case .success(let descriptor):
            return TusPatchWriter(staging: staging, id: id, offset: offset, descriptor: descriptor, pool: pool, slots: slots,
                                  checksum: checksum, digest: digest)
        case .failure(let error):
            slots.release()
            throw error
        }
    }

    /// Adds body bytes; sends them on when enough have gathered.
    ///
    /// - Parameter buffer: Bytes of the PATCH body (read, not consumed).
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing failed; call ``discard()`` then.
    func append(_ buffer: ByteBuffer) async throws(ReceiverError) {
        if pending.readableBytes == 0, buffer.readableBytes >= PartFileWriter.flushThreshold {
            // A large read (``ReceiveBufferSizing``) is written as it is, not copied first.
            return try await send(buffer, gathered: false)
        }
        var buffer = buffer
        pending.writeBuffer(&buffer)
        if pending.readableBytes >= PartFileWriter.flushThreshold {
            try await sendPending()
        }
    }

    /// Writes what is left and waits for every write and hash; the file stays open.
    ///
    /// - Returns: The bytes written, whether they match the checksum, and the upload's digest.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing failed; call ``discard()`` then.
    func drain() async throws(ReceiverError) -> Written {
        try await sendPending()
        if let failure = await chunks.idle() { throw failure }
        let uploadDigest = digestIsChecksum ? checksum?.hasher.sha256 : digest?.hasher
        return Written(count: size, checksumMatches: checksum?.hasher.matches() ?? true, digest: uploadDigest)
    }

    /// Closes the file, keeping what was written.
    func close() async {
        await closeDescriptor()
    }

    /// Closes the file and cuts it back to where this PATCH began.
    func discard() async {
        _ = await chunks.idle()
        await closeDescriptor()
        let (staging, id, startOffset) = (staging, id, startOffset)
        await pool.runBlocking { staging.truncate(id, to: startOffset) }
    }

    /// Sends the bytes gathered on, gathering the next ones in a buffer a finished chunk left.
    private func sendPending() async throws(ReceiverError) {
        guard pending.readableBytes > 0 else { return }
        let chunk = pending
        pending = chunks.takeSpare() ?? ByteBufferAllocator().buffer(capacity: PartFileWriter.flushThreshold)
        try await send(chunk, gathered: true)
    }

    /// Starts writing `chunk` at the end of the bytes handed on so far and hashing it, once fewer
    /// than ``window`` chunks are in flight.
    private func send(_ chunk: ByteBuffer, gathered: Bool) async throws(ReceiverError) {
        guard let descriptor else { return }
        if let failure = await chunks.begin() { throw failure }
        let position = startOffset + size
        size += Int64(chunk.readableBytes)
        let name = id + ".part"
        let chunks = chunks
        let hashes = (checksum == nil ? 0 : 1) + (digest == nil ? 0 : 1)
        let parts = ChunkParts(count: 1 + hashes) { chunks.end(recycling: gathered ? chunk : nil) }
        checksum?.add(chunk, then: parts.done)
        digest?.add(chunk, then: parts.done)
        pool.submit { state in
            guard case .active = state else {
                chunks.fail(.storage(errno: ECANCELED, name: name, creating: false))
                return parts.done()
            }
            if case .failure(let error) = TusPatchWriter.write(chunk, to: descriptor, at: position, name: name) {
                chunks.fail(error)
            }
            parts.done()
        }
    }

    private static func write(_ chunk: ByteBuffer, to descriptor: Int32, at position: Int64, name: String) -> Result<Void, ReceiverError> {
        chunk.withUnsafeReadableBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(position) + off_t(written))
                if count < 0 {
                    if errno == EINTR { continue }
                    return .failure(.storage(errno: errno, name: name, creating: false))
                }
                written += count
            }
            return .success(())
        }
    }

    private func closeDescriptor() async {
        guard let descriptor else { return }
        self.descriptor = nil
        _ = await pool.runBlocking { Glibc.close(descriptor) }
        slots.release()
    }
}

/// A hash fed chunks in the order they are added, on a serial queue of its own.
///
/// `@unchecked Sendable`: swift-crypto's digests are not marked `Sendable`. `hasher` is changed
/// only on `queue`, and read only when every chunk added is through (``ChunksInFlight/idle()``
/// returned, after the last `done` under its lock).
private final class HashLane<Hasher>: @unchecked Sendable {
    private let queue: DispatchQueue
    private let update: (inout Hasher, ByteBuffer) -> Void
    /// The hash of the chunks through so far.
    private(set) var hasher: Hasher

    init(_ hasher: Hasher, label: String, update: @escaping (inout Hasher, ByteBuffer) -> Void) {
        self.hasher = hasher
        self.update = update
        queue = DispatchQueue(label: label)
    }

    /// Hashes `chunk` after the chunks added before it, then calls `done` (on the lane's queue).
    func add(_ chunk: ByteBuffer, then done: @escaping @Sendable () -> Void) {
        queue.async {
            self.update(&self.hasher, chunk)
            done()
        }
    }
}

/// The parts of one chunk's work (its write and its hashes): calls `finished` when the last is done.
private final class ChunkParts: Sendable {
    private let remaining: Atomic<Int>
    private let finished: @Sendable () -> Void

    init(count: Int, finished: @escaping @Sendable () -> Void) {
        remaining = Atomic(count)
        self.finished = finished
    }

    func done() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finished() }
    }
}

/// The chunks a PATCH's writer has in flight: their number (bounded by a window), the first
/// write that failed, and gathering buffers finished chunks left for reuse.
private final class ChunksInFlight: Sendable {
    private struct State {
        var open = 0
        var failure: ReceiverError?
        var spare: [ByteBuffer] = []
        /// The request's task, waiting for room (`open` below the window) or for `open` to be 0.
        var waiting: (continuation: CheckedContinuation<Void, Never>, untilIdle: Bool)?
    }

    private let window: Int
    private let state = Mutex(State())

    init(window: Int) {
        self.window = window
    }

    /// Waits until fewer than the window's chunks are in flight and counts one more.
    ///
    /// - Returns: The failure of a write, if one failed (no chunk is counted then).
    func begin() async -> ReceiverError? {
        await wait(untilIdle: false)
        return state.withLock { state in
            if let failure = state.failure { return failure }
            state.open += 1
            return nil
        }
    }

    /// Waits until no chunk is in flight.
    ///
    /// - Returns: The failure of a write, if one failed.
    func idle() async -> ReceiverError? {
        await wait(untilIdle: true)
        return state.withLock { $0.failure }
    }

    /// Records a write's failure (the first one is kept).
    func fail(_ error: ReceiverError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
    }

    /// Counts a chunk through, keeping its gathering buffer for reuse.
    func end(recycling buffer: ByteBuffer?) {
        let ready = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.open -= 1
            if var buffer {
                buffer.clear()
                state.spare.append(buffer)
            }
            guard let waiting = state.waiting, Self.canGo(state, untilIdle: waiting.untilIdle, window: window) else { return nil }
            state.waiting = nil
            return waiting.continuation
        }
        ready?.resume()
    }

    /// A gathering buffer a finished chunk left, if any.
    func takeSpare() -> ByteBuffer? {
        state.withLock { $0.spare.popLast() }
    }

    private func wait(untilIdle: Bool) async {
        let window = window
        if state.withLock({ Self.canGo($0, untilIdle: untilIdle, window: window) }) { return }
        await withCheckedContinuation { continuation in
            let go = state.withLock { state -> Bool in
                if Self.canGo(state, untilIdle: untilIdle, window: window) { return true }
                state.waiting = (continuation, untilIdle)
                return false
            }
            if go { continuation.resume() }
        }
    }

    private static func canGo(_ state: State, untilIdle: Bool, window: Int) -> Bool {
        untilIdle ? state.open == 0 : state.open < window
    }
}
