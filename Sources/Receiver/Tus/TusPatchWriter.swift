import Multipart
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes one PATCH's bytes into an upload's staged file at its offset, gathering
/// ``PartFileWriter/flushThreshold`` bytes at a time and writing them on the thread pool, so
/// memory stays constant whatever the body's size.
///
/// Not thread-safe: one request's task owns it and **must** call either ``finish()`` or
/// ``discard()`` exactly once.
final class TusPatchWriter {
    /// Bytes written to the file so far (not those still buffered).
    private var size: Int64 = 0

    private let staging: TusStaging
    private let id: String
    private let startOffset: Int64
    private var descriptor: Int32?
    private var pending: ByteBuffer
    private let pool: NIOThreadPool

    private init(staging: TusStaging, id: String, offset: Int64, descriptor: Int32, pool: NIOThreadPool) {
        self.staging = staging
        self.id = id
        self.startOffset = offset
        self.descriptor = descriptor
        self.pool = pool
        self.pending = ByteBufferAllocator().buffer(capacity: PartFileWriter.flushThreshold)
    }

    /// Opens an upload's staged file to write at `offset`.
    ///
    /// - Parameters:
    ///   - staging: The staging folder.
    ///   - id: The upload's ID.
    ///   - offset: Where the PATCH's bytes go (the upload's offset).
    ///   - pool: The thread pool that runs the blocking calls.
    /// - Returns: The writer.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when the file cannot be opened.
    static func open(in staging: TusStaging, id: String, at offset: Int64, pool: NIOThreadPool) async throws(ReceiverError)
        -> TusPatchWriter
    {
        let path = staging.dataPath(id)
        let opened: Result<Int32, ReceiverError> = await pool.runBlocking {
            let descriptor = FileSystemName.withFileSystemPath(path) { Glibc.open($0, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
            return descriptor >= 0 ? .success(descriptor) : .failure(TusStaging.storageError(errno, name: id + ".part", creating: false))
        }
        return TusPatchWriter(staging: staging, id: id, offset: offset, descriptor: try opened.get(), pool: pool)
    }

    /// Adds body bytes; writes them out when enough have gathered.
    ///
    /// - Parameter buffer: Bytes of the PATCH body (read, not consumed).
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing fails; call ``discard()`` then.
    func append(_ buffer: ByteBuffer) async throws(ReceiverError) {
        var buffer = buffer
        pending.writeBuffer(&buffer)
        if pending.readableBytes >= PartFileWriter.flushThreshold {
            try await flush()
        }
    }

    /// Writes what is left and closes the file.
    ///
    /// - Returns: The bytes written at the offset.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing fails; call ``discard()`` then.
    func finish() async throws(ReceiverError) -> Int64 {
        try await flush()
        await closeDescriptor()
        return size
    }

    /// Closes the file and cuts it back to where this PATCH began.
    func discard() async {
        await closeDescriptor()
        let (staging, id, startOffset) = (staging, id, startOffset)
        await pool.runBlocking { staging.truncate(id, to: startOffset) }
    }

    private func flush() async throws(ReceiverError) {
        guard pending.readableBytes > 0, let descriptor else { return }
        let chunk = pending
        let position = startOffset + size
        let name = id + ".part"
        let outcome: Result<Void, ReceiverError> = await pool.runBlocking {
            chunk.withUnsafeReadableBytes { bytes in
                var written = 0
                while written < bytes.count {
                    let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(position) + off_t(written))
                    if count < 0 {
                        if errno == EINTR { continue }
                        return .failure(TusStaging.storageError(errno, name: name, creating: false))
                    }
                    written += count
                }
                return .success(())
            }
        }
        try outcome.get()
        size += Int64(chunk.readableBytes)
        pending.clear()
    }

    private func closeDescriptor() async {
        guard let descriptor else { return }
        self.descriptor = nil
        _ = await pool.runBlocking { close(descriptor) }
    }
}
