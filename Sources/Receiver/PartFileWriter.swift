import Crypto
import FileSystem
import Multipart
import NIOCore
import NIOPosix
import Glibc

/// Streams one uploaded file part to disk, hashing as it writes, and puts it into the upload
/// directory only once it is whole.
///
/// The bytes go to a new file in the staging folder `.ferry-partial` (``StagingFolder``), held
/// under an exclusive `flock` while this writer lives; ``finish()`` links it into the upload
/// directory under the part's safe name (`name-1.ext` … while taken, never over an existing
/// file). So a file under its own name in the upload directory is always a whole one — a reader
/// of the folder, or a receiver killed mid-upload, never leaves a cut file that looks finished —
/// and two requests can never pick the same name. Data is gathered into a buffer of
/// ``flushThreshold`` bytes, then hashed (here: swift-crypto's `SHA256` is not `Sendable`) and
/// written on the NIO thread pool, so memory stays constant for any file size and blocking system
/// calls stay off the concurrency pool. The open file holds one of the server's
/// ``UploadSlots`` from ``create(named:in:pool:slots:)`` until it is closed.
///
/// Not thread-safe: one request's task owns it and **must** call either ``finish()`` or
/// ``discard()`` (also after a finish, to take the file back) exactly once.
final class PartFileWriter {
    /// Bytes gathered before they are written out.
    static let flushThreshold = 256 * 1024
    /// The staging folder's name inside the upload directory.
    static let stagingFolderName = ".ferry-partial"

    /// The name the file is saved under, once ``finish()`` put it into the upload directory.
    private(set) var savedAs: String?
    /// Bytes written so far (including those still buffered).
    private(set) var size: Int64 = 0

    private let name: SafeFilename
    private let staging: StagingFolder
    private let stagedPath: String
    private var descriptor: Int32?
    private var hasher = SHA256()
    private var pending: ByteBuffer
    private let pool: NIOThreadPool
    /// Given back the slot of the open file as it is closed.
    private let slots: UploadSlots

    private init(
        name: SafeFilename, staging: StagingFolder, stagedPath: String, descriptor: Int32, pool: NIOThreadPool, slots: UploadSlots
    ) {
        self.name = name
        self.staging = staging
        self.stagedPath = stagedPath
        self.descriptor = descriptor
        self.pool = pool
        self.slots = slots
        self.pending = ByteBufferAllocator().buffer(capacity: Self.flushThreshold)
    }

    /// Creates a new, empty staged file for a part to be saved as `name` in `directory`, taking
    /// one of `slots` for it.
    ///
    /// - Parameters:
    ///   - name: The sanitised name the file is to be saved under.
    ///   - directory: The upload directory (absolute path).
    ///   - pool: The thread pool that runs the blocking calls.
    ///   - slots: The server's upload slots; the file holds one while it is open.
    /// - Returns: A writer for the new file.
    /// - Throws: ``ReceiverError/RequestRejectionReason/tooManyUploads(limit:)`` when no slot is
    ///   free, ``ReceiverError/storageFailed(reason:)`` when no file could be created.
    static func create(named name: SafeFilename, in directory: String, pool: NIOThreadPool, slots: UploadSlots)
        async throws(ReceiverError) -> PartFileWriter
    {
        guard slots.acquire() else { throw .requestRejected(reason: .tooManyUploads(limit: slots.limit)) }
        let staging = StagingFolder(uploadDirectory: directory, name: stagingFolderName)
        let result = await pool.runBlocking { staging.prepare().flatMap { Self.openStaged(in: staging, for: name) } }
        switch result {
        case .success(let (path, descriptor)):
            return PartFileWriter(name: name, staging: staging, stagedPath: path, descriptor: descriptor, pool: pool, slots: slots)
        case .failure(let error):
            slots.release()
            throw error
        }
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

    /// Writes what is left, closes the file and puts it into the upload directory.
    ///
    /// - Returns: The name it was saved under, the byte count and the lowercase hex SHA-256.
    /// - Throws: ``ReceiverError/storageFailed(reason:)`` when writing or linking fails; call
    ///   ``discard()`` then.
    func finish() async throws(ReceiverError) -> (savedAs: String, size: Int64, sha256: String) {
        try await flush()
        // Linked while the descriptor, and so the lock, is still held: a receiver starting on the
        // same folder meanwhile takes an unlocked staged file for a killed one's leftover.
        let moved = await pool.runBlocking { [staging, stagedPath, name] in staging.moveIntoUploadDirectory(stagedPath, as: name) }
        await closeDescriptor()
        let savedAs = try moved.get()
        self.savedAs = savedAs
        return (savedAs, size, hasher.finalize().lowercaseHex)
    }

    /// Closes (if still open) and deletes the file: the staged one, or the saved one after
    /// ``finish()``.
    func discard() async {
        await closeDescriptor()
        let path = savedAs.map { staging.uploadDirectory + "/" + $0 } ?? stagedPath
        _ = await pool.runBlocking { FileSystemName.withFileSystemPath(path) { unlink($0) } }
    }

    /// Removes what a receiver killed mid-upload left in the staging folder of `directory`: the
    /// staged files no live writer holds locked (another receiver on the same folder keeps its
    /// own). Blocks: call it on the thread pool.
    ///
    /// - Parameter directory: The upload directory (absolute path).
    static func removeLeftovers(in directory: String) {
        let staging = StagingFolder(uploadDirectory: directory, name: stagingFolderName)
        for entry in staging.entries() where entry.hasSuffix(".part") {
            let path = staging.path + "/" + entry
            let descriptor = FileSystemName.withFileSystemPath(path) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                _ = FileSystemName.withFileSystemPath(path) { unlink($0) }
            }
            close(descriptor)
        }
    }

    private func flush() async throws(ReceiverError) {
        guard pending.readableBytes > 0, let descriptor else { return }
        pending.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        let chunk = pending
        let outcome = await pool.runBlocking { [name] in
            chunk.withUnsafeReadableBytes { bytes -> Result<Void, ReceiverError> in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        let error = errno
                        if error == EINTR { continue }
                        return .failure(.storage(errno: error, name: name.value, creating: false))
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
        slots.release()
    }

    /// Creates a staged file under a random name (`<16 hex digits>.part`), locked while this
    /// process holds it open.
    private static func openStaged(in staging: StagingFolder, for name: SafeFilename) -> Result<(String, Int32), ReceiverError> {
        var random = SystemRandomNumberGenerator()
        while true {
            let path = staging.path + "/" + withUnsafeBytes(of: random.next() as UInt64) { $0.lowercaseHex } + ".part"
            let descriptor = FileSystemName.withFileSystemPath(path) {
                open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            }
            if descriptor >= 0 {
                _ = flock(descriptor, LOCK_EX | LOCK_NB)
                return .success((path, descriptor))
            }
            let error = errno
            if error == EEXIST || error == EINTR { continue }
            return .failure(.storage(errno: error, name: name.value, creating: true))
        }
    }
}
