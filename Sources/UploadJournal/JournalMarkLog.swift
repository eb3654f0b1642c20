import FileSystem
import FoundationEssentials
import Multipart
import Synchronization
import Glibc
import UploadModel
import UploadEngine

/// The journal's write-ahead marks (`JournalMark`): a file of its own per process
/// (`<journal>-marks-<pid>-<random>`, `0600`) where each mark is one 16-byte `pwrite(2)` into
/// space reserved ahead, made on the caller's thread before it goes on. A mark is in the
/// kernel's page cache when `append` returns, so it survives the process being killed at any
/// instruction; it costs about a microsecond, where a SQLite transaction ahead of every last byte
/// would cost a commit and two thread hops per upload.
///
/// Space is reserved with `posix_fallocate` in `reservationBytes` chunks, the next one while a
/// `lowWaterBytes` margin is still free, so a full disk is found while the marks of the jobs in
/// flight still fit: `append` then keeps working and the failure is reported once
/// (`reservationFailed`), for the manager to start nothing new. A mark that cannot be written at
/// all makes `append` return false — the caller then must not let the fact happen (a last byte
/// is held back).
///
/// Records: kind (1 `bodyMayComplete`, 2 `succeeded`), its complement, two zero bytes, the
/// attempt (UInt32, little-endian), the job ID (Int64, little-endian). Zeroed space and torn or
/// foreign bytes are skipped when read.
///
/// Safe to use from any thread (one lock around the file's offset and its writes).
public final class JournalMarkLog: JournalMarkStore {
    private struct State {
        var descriptor: Int32
        /// Bytes written since the file was created or last reset.
        var used: Int64 = 0
        /// Bytes reserved.
        var capacity: Int64 = 0
        /// Why reserving failed, once it has (reported once).
        var reservationFailure: String?
    }

    /// The size of one record.
    static let recordSize = 16
    /// How much is reserved at a time.
    static let reservationBytes: Int64 = 256 * 1024
    /// When less than this is free, the next reservation is made.
    static let lowWaterBytes: Int64 = 128 * 1024

    /// The file's path.
    let path: String
    private let state: Mutex<State>
    private let failureHandler = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Creates this process's mark file beside the journal and reserves its first chunk.
    ///
    /// - Parameter journalPath: The journal's database path.
    /// - Throws: `UploadError.journalFailed(reason: .openFailed)` when the file cannot be
    ///   created or its space reserved.
    init(journalPath: String) throws(UploadError) {
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        path = "\(journalPath)-marks-\(getpid())-\(suffix)"
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .journalFailed(reason: .openFailed(path: path, message: String(cString: strerror(errno))))
        }
        let result = posix_fallocate(descriptor, 0, off_t(Self.reservationBytes))
        guard result == 0 else {
            Glibc.close(descriptor)
            unlink(path)
            throw .journalFailed(reason: .openFailed(
                path: path, message: "cannot reserve \(Self.reservationBytes / 1024) KiB: \(String(cString: strerror(result)))"))
        }
        state = Mutex(State(descriptor: descriptor, capacity: Self.reservationBytes))
    }

    /// Sets what is called, once, when reserving more space failed (the reason in words).
    ///
    /// - Parameter handler: The handler; called on the thread that appended.
    public func setReservationFailureHandler(_ handler: @escaping @Sendable (String) -> Void) {
        failureHandler.withLock { $0 = handler }
    }

    /// Writes a mark. Returns once it is in the kernel's hands.
    ///
    /// - Parameter mark: The mark.
    /// - Returns: Whether it was written; false when no reserved space is left or the write
    ///   failed (the file system turned read-only, say).
    public func append(_ mark: JournalMark) -> Bool {
        var record = [UInt8](repeating: 0, count: Self.recordSize)
        let (kind, job, attempt): (UInt8, Int64, Int) = switch mark {
        case let .bodyMayComplete(id, attempt): (1, id.rawValue, attempt)
        case let .succeeded(id): (2, id.rawValue, 0)
        }
        record[0] = kind
        record[1] = ~kind
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: attempt).littleEndian) { record.replaceSubrange(4..<8, with: $0) }
        withUnsafeBytes(of: job.littleEndian) { record.replaceSubrange(8..<16, with: $0) }
        let (written, failure): (Bool, String?) = state.withLock { state in
            guard state.descriptor >= 0, state.used + Int64(Self.recordSize) <= state.capacity else { return (false, nil) }
            let count = record.withUnsafeBytes { pwrite(state.descriptor, $0.baseAddress, $0.count, off_t(state.used)) }
            guard count == Self.recordSize else { return (false, nil) }
            state.used += Int64(Self.recordSize)
            return (true, reserveIfLow(&state))
        }
        if let failure, let handler = failureHandler.withLock({ $0 }) { handler(failure) }
        return written
    }

    /// Tries whether marks can be written again: zeros (which a reader skips) where the next
    /// mark goes, in reserved space.
    ///
    /// - Returns: Whether they were written.
    func probe() -> Bool {
        state.withLock { state in
            guard state.descriptor >= 0, state.used + Int64(Self.recordSize) <= state.capacity else { return false }
            let zeros = [UInt8](repeating: 0, count: Self.recordSize)
            return zeros.withUnsafeBytes { pwrite(state.descriptor, $0.baseAddress, $0.count, off_t(state.used)) } == Self.recordSize
        }
    }

    /// The bytes written since the file was created or last reset.
    public var usedBytes: Int64 {
        state.withLock { $0.used }
    }

    /// Forgets every mark, if none was written since `used` was read: every mark up to then is
    /// in the journal's rows (the caller made sure every attempt then had ended and its rows
    /// were written). The space stays reserved.
    ///
    /// - Parameter used: ``usedBytes`` as read then.
    public func reset(ifUsedIs used: Int64) {
        state.withLock { state in
            guard state.descriptor >= 0, state.used == used, used > 0 else { return }
            let zeros = [UInt8](repeating: 0, count: Int(used))
            guard zeros.withUnsafeBytes({ pwrite(state.descriptor, $0.baseAddress, $0.count, 0) }) == Int(used) else { return }
            state.used = 0
        }
    }

    /// Closes the file, removing it when it holds no mark (a later restore reads the others).
    func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            if state.used == 0 {
                unlink(path)
            } else {
                ftruncate(state.descriptor, off_t(state.used))
            }
            Glibc.close(state.descriptor)
            state.descriptor = -1
        }
    }

    /// Reserves the next chunk when the free space is under the low-water mark.
    ///
    /// - Returns: Why reserving failed, the first time it does.
    private func reserveIfLow(_ state: inout State) -> String? {
        guard state.capacity - state.used < Self.lowWaterBytes, state.reservationFailure == nil else { return nil }
        let result = posix_fallocate(state.descriptor, off_t(state.capacity), off_t(Self.reservationBytes))
        guard result == 0 else {
            let reason = "cannot reserve space for the journal's marks in \(path): \(String(cString: strerror(result)))"
            state.reservationFailure = reason
            return reason
        }
        state.capacity += Self.reservationBytes
        return nil
    }

    // MARK: - Reading what earlier processes left

    /// The mark files beside a journal, but `excluding` (this process's own).
    ///
    /// - Parameters:
    ///   - journalPath: The journal's database path.
    ///   - excluding: A path to leave out.
    /// - Returns: Their paths.
    static func files(besideJournal journalPath: String, excluding: String?) -> [String] {
        let directory = PathName.parent(of: journalPath)
        let prefix = PathName.lastComponent(of: journalPath) + "-marks-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        return names.filter { $0.hasPrefix(prefix) }
            .map { PathName.joined(directory, $0) }
            .filter { $0 != excluding }
            .sorted()
    }

    /// The marks a file holds, in the order written.
    ///
    /// - Parameter path: The file.
    /// - Returns: The marks.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)` when it cannot be read.
    static func marks(inFile path: String) throws(UploadError) -> [JournalMark] {
        let data: [UInt8]
        switch DescriptorInput.readFile(atPath: path) {
        case let .success(bytes): data = bytes
        case let .failure(failure):
            throw .journalFailed(reason: .readFailed(message: "cannot read the journal's marks in \(path): \(SystemError.message(for: failure.errno))"))
        }
        var marks: [JournalMark] = []
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset + recordSize <= bytes.count {
                defer { offset += recordSize }
                let kind = bytes[offset]
                guard bytes[offset + 1] == ~kind, bytes[offset + 2] == 0, bytes[offset + 3] == 0 else { continue }
                let attempt = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian
                let job = UploadJobID(bytes.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self).littleEndian)
                switch kind {
                case 1: marks.append(.bodyMayComplete(job, attempt: Int(attempt)))
                case 2: marks.append(.succeeded(job))
                default: continue
                }
            }
        }
        return marks
    }
}
