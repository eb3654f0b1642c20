import Glibc
import UploadModel

/// Tells processes sharing one journal apart, so that a job is never sent by two of them.
///
/// Every process that opens the journal holds a shared POSIX lock on `<journal>.lock` for as
/// long as it has the journal open; the kernel drops it when the process ends, however it ends,
/// so no stale lock survives a crash. Taking over the rows an ended run left behind (a restore)
/// needs the lock exclusively for a moment: while any other process has the journal open, its
/// queued rows may be its own live jobs, and the takeover is refused with that process's ID.
///
/// POSIX locks belong to the process, so two journals opened in one process never conflict.
final class JournalLock: Sendable {
    private let descriptor: Int32
    private let path: String

    /// Opens (creating `0600`) the lock file beside the journal and takes the shared lock,
    /// waiting while another process holds it exclusively (a takeover takes milliseconds).
    ///
    /// - Parameter journalPath: The journal database's path.
    /// - Throws: `UploadError.journalFailed(reason: .openFailed)`.
    init(journalPath: String) throws(UploadError) {
        path = journalPath + ".lock"
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .journalFailed(reason: .openFailed(path: journalPath, message: "cannot open \(path): \(Self.errorText())"))
        }
        fchmod(descriptor, 0o600)
        guard Self.lock(descriptor, F_RDLCK, wait: true) == 0 else {
            // No close here: every stored property is set, so `deinit` runs and closes it (a
            // second close could close a descriptor another thread has opened meanwhile).
            let message = "cannot lock \(path): \(Self.errorText())"
            throw .journalFailed(reason: .openFailed(path: journalPath, message: message))
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Runs `body` holding the lock exclusively, then goes back to the shared lock.
    ///
    /// - Parameter body: The takeover.
    /// - Returns: What `body` returns.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the process that has the
    ///   journal open, or what `body` throws.
    func exclusively<T>(_ body: () throws(UploadError) -> T) throws(UploadError) -> T {
        guard Self.lock(descriptor, F_WRLCK, wait: false) == 0 else {
            throw .journalFailed(reason: .inUse(path: String(path.dropLast(".lock".count)), processID: holder()))
        }
        defer { _ = Self.lock(descriptor, F_RDLCK, wait: true) }
        return try body()
    }

    /// The ID of a process whose lock conflicts with an exclusive one, if the kernel says.
    private func holder() -> Int32? {
        var query = flock()
        query.l_type = Int16(F_WRLCK)
        query.l_whence = Int16(SEEK_SET)
        query.l_start = 0
        query.l_len = 1
        guard fcntl(descriptor, F_GETLK, &query) == 0, query.l_type != Int16(F_UNLCK) else { return nil }
        return query.l_pid
    }

    /// Sets a lock of `type` on the file's first byte (`F_SETLKW` when waiting), retrying after
    /// signals; returns 0 or -1 with `errno` set.
    private static func lock(_ descriptor: Int32, _ type: Int32, wait: Bool) -> Int32 {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 1
        while true {
            let result = fcntl(descriptor, wait ? F_SETLKW : F_SETLK, &request)
            if result == 0 || errno != EINTR { return result }
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
