import Crypto
import Multipart
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams one uploaded file part to a new file in the upload directory, hashing as it writes.
///
/// The file is created with `O_EXCL`, so an existing file is never overwritten and two requests
/// can never pick the same name. Data is gathered into a buffer of ``flushThreshold`` bytes, then
/// hashed (here: swift-crypto's `SHA256` is not `Sendable`) and written on the NIO thread pool,
/// so memory stays constant for any file size and blocking system calls stay off the
/// concurrency pool.
///
/// Not thread-safe: one request's task owns it and **must** call either ``finish()`` or
/// ``discard()`` exactly once.
final class PartFileWriter {
    /// Bytes gathered before they are written out.
    static let flushThreshold = 256 * 1024
    /// How many suffixed names (`name-1.ext` …) are tried before giving up.
    static let maximumAttempts = 10_000

    /// The name the file was created under, directly inside ``directory``.
    let savedAs: String
    /// The upload directory.
    let directory: String
    /// Bytes written so far (including those still buffered).
    private(set) var size: Int64 = 0

    private var descriptor: Int32?
    private var hasher = SHA256()
    private var pending: ByteBuffer
    private let pool: NIOThreadPool

    private init(savedAs: String, directory: String, descriptor: Int32, pool: NIOThreadPool) {
        self.savedAs = savedAs
        self.directory = directory
        self.descriptor = descriptor
        self.pool = pool
        self.pending = ByteBufferAllocator().buffer(capacity: Self.flushThreshold)
    }

    /// Creates a new, empty file for `name` in `directory`, adding `-1`, `-2`, … while taken.
    ///
    /// - Parameters:
    ///   - name: The sanitised name to start from.
    ///   - directory: The upload directory (absolute path).
    ///   - pool: The thread pool that runs the blocking calls.
    /// - Returns: A writer for the new file.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when no file could be created.
    static func create(named name: SafeFilename, in directory: String, pool: NIOThreadPool) async throws(ReceiverError)
        -> PartFileWriter
    {
        let result = await pool.runBlocking { Self.openExclusively(name, in: directory) }
        let (savedAs, descriptor) = try result.get()
        return PartFileWriter(savedAs: savedAs, directory: directory, descriptor: descriptor, pool: pool)
    }

    /// Adds part body bytes; writes them out when enough have gathered.
    ///
    /// - Parameter buffer: Bytes of the part body (read, not consumed).
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing fails.
    func append(_ buffer: ByteBuffer) async throws(ReceiverError) {
        size += Int64(buffer.readableBytes)
        var buffer = buffer
        pending.writeBuffer(&buffer)
        if pending.readableBytes >= Self.flushThreshold {
            try await flush()
        }
    }

    /// Writes what is left, closes the file and returns its size and SHA-256.
    ///
    /// - Returns: The byte count and the lowercase hex SHA-256.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing fails; call ``discard()`` then.
    func finish() async throws(ReceiverError) -> (size: Int64, sha256: String) {
        try await flush()
        await closeDescriptor()
        let digest = hasher.finalize()
        let hex = digest.map { byte in
            let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
        return (size, hex)
    }

    /// Closes (if still open) and deletes the file.
    func discard() async {
        await closeDescriptor()
        let path = directory + "/" + savedAs
        _ = await pool.runBlocking { FileSystemName.withFileSystemPath(path) { unlink($0) } }
    }

    private func flush() async throws(ReceiverError) {
        guard pending.readableBytes > 0, let descriptor else { return }
        pending.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        let chunk = pending
        let outcome = await pool.runBlocking { [savedAs] in
            chunk.withUnsafeReadableBytes { bytes -> Result<Void, ReceiverError> in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        let error = errno
                        if error == EINTR { continue }
                        if Self.isOutOfSpace(error) {
                            return .failure(.storageFailed(reason: .outOfSpace(name: savedAs, errno: error)))
                        }
                        return .failure(.storageFailed(reason: .writeFailed(name: savedAs, errno: error)))
                    }
                    offset += written
                }
                return .success(())
            }
        }
        try outcome.get()
        pending.clear()
    }

    private func closeDescriptor() async {
        guard let descriptor else { return }
        self.descriptor = nil
        _ = await pool.runBlocking { close(descriptor) }
    }

    /// Whether `error` says the disk or the quota is full (no inode is "full" too: `ENOSPC`).
    static func isOutOfSpace(_ error: Int32) -> Bool {
        error == ENOSPC || error == EDQUOT
    }

    private static func openExclusively(_ name: SafeFilename, in directory: String) -> Result<(String, Int32), ReceiverError> {
        for attempt in 0..<maximumAttempts {
            let candidate = name.candidate(attempt)
            let path = directory + "/" + candidate
            let descriptor = FileSystemName.withFileSystemPath(path) {
                open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            }
            if descriptor >= 0 {
                return .success((candidate, descriptor))
            }
            let error = errno
            if error == EEXIST { continue }
            if error == EINTR { continue }
            if isOutOfSpace(error) {
                return .failure(.storageFailed(reason: .outOfSpace(name: candidate, errno: error)))
            }
            return .failure(.storageFailed(reason: .createFailed(name: candidate, errno: error)))
        }
        return .failure(.storageFailed(reason: .noFreeName(base: name.value)))
    }
}
