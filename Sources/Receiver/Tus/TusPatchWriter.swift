import Crypto
import Multipart
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes one PATCH's bytes into an upload's staged file at its offset, gathering
/// ``PartFileWriter/flushThreshold`` bytes at a time (256 KiB) and writing them on the thread
/// pool, so memory stays constant whatever the body's size; a body buffer that large on its own
/// (a connection's reads grow to 256 KiB, ``ReceiveBufferSizing``) is written as it is, uncopied.
///
/// The PATCH's `Upload-Checksum` and the upload's running SHA-256 are computed on the thread pool
/// too, after each write (one hash for both when they are the same: an `sha256` checksum of a
/// PATCH at 0), and one write is in flight while the next bytes gather: the request's task only
/// copies bytes, so reading the body, writing and hashing overlap.
///
/// Not thread-safe: one request's task owns it and **must** call either ``close()`` (after
/// ``drain()``) or ``discard()`` exactly once.
final class TusPatchWriter {
    /// What hashes the bytes, fed in file order by the writes.
    ///
    /// `@unchecked Sendable`: swift-crypto's digests are not marked `Sendable` (copy-on-write
    /// state). No lock is needed: the hashers are handed from write to write, and one write at a
    /// time holds them (``settle()`` waits for a write before the next one starts).
    private struct Hashers: @unchecked Sendable {
        /// The PATCH's `Upload-Checksum`, if it has one.
        var checksum: TusChecksumHasher?
        /// The upload's bytes from 0, if they are known from 0 and the checksum's hash is not them.
        var digest: SHA256?
        /// Whether the checksum's SHA-256 is the upload's digest too (an `sha256` checksum of a
        /// PATCH at 0 hashes the same bytes from the same start), so each byte is hashed once.
        let digestIsChecksum: Bool

        init(checksum: TusChecksum?, digest: SHA256?, offset: Int64) {
            self.checksum = checksum.map(TusChecksumHasher.init(checking:))
            digestIsChecksum = offset == 0 && digest != nil && checksum?.algorithm == .sha256
            self.digest = digestIsChecksum ? nil : digest
        }

        /// The upload's SHA-256 from 0 through the bytes added, if known.
        var uploadDigest: SHA256? {
            digestIsChecksum ? checksum?.sha256 : digest
        }

        mutating func update(_ buffer: ByteBuffer) {
            checksum?.update(buffer)
            guard digest != nil else { return }
            buffer.withUnsafeReadableBytes { digest?.update(bufferPointer: $0) }
        }
    }

    /// What a PATCH's written bytes came to.
    struct Written {
        /// How many bytes were written at the offset.
        var count: Int64
        /// Whether they match the PATCH's `Upload-Checksum` (`true` when it has none).
        var checksumMatches: Bool
        /// The upload's SHA-256 from 0 through them, when the writer was given the one before.
        var digest: SHA256?
    }

    /// Bytes handed to writes so far (written, or in flight).
    private var size: Int64 = 0
    private let staging: TusStaging
    private let id: String
    private let startOffset: Int64
    private var descriptor: Int32?
    private var pending: ByteBuffer
    private let pool: NIOThreadPool
    /// The hashers as the last finished write left them.
    private var hashers: Hashers
    /// What a write leaves: its outcome, the hashers after it, and its buffer.
    private typealias Outcome = (Result<Void, ReceiverError>, Hashers, ByteBuffer)

    /// Hands a write's outcome from the thread pool to the request's task, which waits only if
    /// it asks before the write ended (no task of its own per write, and no hop when it is done).
    private final class Handover: Sendable {
        private struct State {
            var outcome: Outcome?
            var waiting: CheckedContinuation<Outcome, Never>?
        }

        private let state = Mutex(State())

        func deliver(_ outcome: Outcome) {
            let waiting = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                guard let waiting = state.waiting else {
                    state.outcome = outcome
                    return nil
                }
                state.waiting = nil
                return waiting
            }
            waiting?.resume(returning: outcome)
        }

        func outcome() async -> Outcome {
            if let outcome = state.withLock({ $0.outcome }) { return outcome }
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Outcome? in
                    if let outcome = state.outcome { return outcome }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// The write in flight, and whether its buffer is `pending`'s (to gather in again) or the body's.
    private var inFlight: (handover: Handover, gathered: Bool)?
    /// The last write's buffer, emptied, to gather the next bytes in (two buffers take turns).
    private var spare: ByteBuffer?

    private init(staging: TusStaging, id: String, offset: Int64, descriptor: Int32, pool: NIOThreadPool, hashers: Hashers) {
        self.staging = staging
        self.id = id
        self.startOffset = offset
        self.descriptor = descriptor
        self.pool = pool
        self.hashers = hashers
        self.pending = ByteBufferAllocator().buffer(capacity: PartFileWriter.flushThreshold)
    }

    /// Opens an upload's staged file to write at `offset`.
    ///
    /// - Parameters:
    ///   - staging: The staging folder.
    ///   - id: The upload's ID.
    ///   - offset: Where the PATCH's bytes go (the upload's offset).
    ///   - pool: The thread pool that runs the blocking calls.
    ///   - checksum: The PATCH's `Upload-Checksum`, if it has one.
    ///   - digest: The SHA-256 of the upload's bytes before `offset`, if known.
    /// - Returns: The writer.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when the file cannot be opened.
    static func open(in staging: TusStaging, id: String, at offset: Int64, pool: NIOThreadPool,
                     checksum: TusChecksum?, digest: SHA256?) async throws(ReceiverError) -> TusPatchWriter {
        let path = staging.dataPath(id)
        let opened: Result<Int32, ReceiverError> = await pool.runBlocking {
            let descriptor = FileSystemName.withFileSystemPath(path) { Glibc.open($0, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
            return descriptor >= 0 ? .success(descriptor) : .failure(.storage(errno: errno, name: id + ".part", creating: false))
        }
        let hashers = Hashers(checksum: checksum, digest: digest, offset: offset)
        return TusPatchWriter(staging: staging, id: id, offset: offset, descriptor: try opened.get(), pool: pool, hashers: hashers)
    }

    /// Adds body bytes; starts writing them out when enough have gathered.
    ///
    /// - Parameter buffer: Bytes of the PATCH body (read, not consumed).
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing fails; call ``discard()`` then.
    func append(_ buffer: ByteBuffer) async throws(ReceiverError) {
        if pending.readableBytes == 0, buffer.readableBytes >= PartFileWriter.flushThreshold {
            // A large read (``ReceiveBufferSizing``) is written as it is, not copied first.
            try await settle()
            return startWrite(buffer, gathered: false)
        }
        var buffer = buffer
        pending.writeBuffer(&buffer)
        if pending.readableBytes >= PartFileWriter.flushThreshold {
            try await startWrite()
        }
    }

    /// Writes what is left and waits for every write; the file stays open.
    ///
    /// - Returns: The bytes written, whether they match the checksum, and the upload's digest.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing fails; call ``discard()`` then.
    func drain() async throws(ReceiverError) -> Written {
        try await startWrite()
        try await settle()
        return Written(count: size, checksumMatches: hashers.checksum?.matches() ?? true, digest: hashers.uploadDigest)
    }

    /// Closes the file, keeping what was written.
    func close() async {
        await closeDescriptor()
    }

    /// Closes the file and cuts it back to where this PATCH began.
    func discard() async {
        try? await settle()
        await closeDescriptor()
        let (staging, id, startOffset) = (staging, id, startOffset)
        await pool.runBlocking { staging.truncate(id, to: startOffset) }
    }

    /// Waits for the write in flight, then starts writing the bytes gathered.
    private func startWrite() async throws(ReceiverError) {
        try await settle()
        guard pending.readableBytes > 0 else { return }
        let chunk = pending
        pending = spare ?? ByteBufferAllocator().buffer(capacity: PartFileWriter.flushThreshold)
        spare = nil
        startWrite(chunk, gathered: true)
    }

    /// Starts writing `chunk` at the end of the bytes handed to writes so far, and hashing it
    /// after; **must** be called with no write in flight (after ``settle()``).
    private func startWrite(_ chunk: ByteBuffer, gathered: Bool) {
        guard let descriptor else { return }
        let position = startOffset + size
        size += Int64(chunk.readableBytes)
        let name = id + ".part"
        let before = hashers
        let handover = Handover()
        inFlight = (handover, gathered)
        pool.submit { state in
            guard case .active = state else {
                return handover.deliver((.failure(.storage(errno: ECANCELED, name: name, creating: false)), before, chunk))
            }
            var hashers = before
            let outcome = TusPatchWriter.write(chunk, to: descriptor, at: position, name: name)
            hashers.update(chunk)
            handover.deliver((outcome, hashers, chunk))
        }
    }

    /// Waits for the write in flight, if any, and takes the hashers and the buffer it left.
    private func settle() async throws(ReceiverError) {
        guard let write = inFlight else { return }
        inFlight = nil
        let (outcome, after, written) = await write.handover.outcome()
        hashers = after
        if write.gathered {
            var buffer = written
            buffer.clear()
            spare = buffer
        }
        try outcome.get()
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
    }
}
