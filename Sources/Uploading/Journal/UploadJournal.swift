import Foundation
import GRDB
import Multipart
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The queue's journal: one SQLite row per job (spec, state, attempts and their history, last
/// error — typed, `JournaledError` —, response; never file contents), mapped by
/// `UploadJobRecord`.
///
/// The database runs in WAL mode with `synchronous = NORMAL`: every committed transaction
/// survives the process being killed (SIGKILL included). The directory is created `0700` and the
/// database, `-wal` and `-shm` files are `0600`, because job specs hold secrets such as
/// `Authorization` headers.
///
/// Recording a change is an `UPDATE` of one row by primary key, so its cost does not grow with
/// the queue; batches of changes share one transaction. All methods are safe to call from any
/// thread (GRDB's `DatabaseQueue` serialises them).
public final class UploadJournal: Sendable {
    /// The database file's path.
    public let path: String
    /// Whose jobs this handle inserts and restores (rows written before clients were recorded
    /// are anyone's).
    public let client: JournalClient
    /// The one connection to the file (GRDB's queue serialises every use of it).
    let database: DatabaseQueue
    private let lock: JournalLock
    /// This process's write-ahead marks (`JournalMarkLog`).
    let marks: JournalMarkLog
    /// The database file's device and inode when it was opened, to tell that it was removed.
    private let identity: (device: UInt64, inode: UInt64)
    /// Fault-injection point (tests only; nil in production, and nothing outside the tests sets
    /// it): asked before each insert and each batch of changes, which fails as a full disk would
    /// fail it when it answers true. See ``injectFaults(_:)``.
    private let injectedFault = Mutex<(@Sendable (JournalFaultPoint) -> Bool)?>(nil)

    /// Opens (creating if needed) the journal at `path`.
    ///
    /// Missing directories are created with mode `0700`; the database files get `0600`. The
    /// process holds a shared lock on `<path>.lock` while the journal is open (see
    /// ``takeOverRestorableJobs()``).
    ///
    /// - Parameters:
    ///   - path: The database file's path.
    ///   - client: Whose jobs this handle inserts and restores.
    /// - Throws: `UploadError.journalFailed(reason: .openFailed)`.
    public init(path: String, client: JournalClient = .send) throws(UploadError) {
        self.path = path
        self.client = client
        let directory = (path as NSString).deletingLastPathComponent
        try Self.createDirectories(directory.isEmpty ? "." : directory, journalPath: path)
        try Self.createPrivateFile(path)
        lock = try JournalLock(journalPath: path)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.label = "ferry.uploading.journal-db"
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw .journalFailed(reason: .openFailed(path: path, message: "\(error)"))
        }
        Self.restrictPermissions(ofJournalAt: path)
        marks = try JournalMarkLog(journalPath: path)
        identity = Self.identity(of: path) ?? (0, 0)
    }

    /// Where the journal lives by default: `$XDG_STATE_HOME/ferry/journal.sqlite`, or
    /// `~/.local/state/ferry/journal.sqlite` when `XDG_STATE_HOME` is unset or not absolute.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The path.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return (state as NSString).appendingPathComponent("ferry/journal.sqlite")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".local/state/ferry/journal.sqlite")
    }

    /// Opens the journal at its default path, making sure its `ferry` directory is `0700`.
    ///
    /// - Parameters:
    ///   - client: Whose jobs the handle inserts and restores.
    ///   - environment: The process environment.
    /// - Returns: The journal.
    /// - Throws: `UploadError.journalFailed(reason: .openFailed)`.
    public static func openDefault(
        client: JournalClient = .send, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UploadError) -> UploadJournal {
        let path = defaultPath(environment: environment)
        let journal = try UploadJournal(path: path, client: client)
        chmod((path as NSString).deletingLastPathComponent, 0o700)
        return journal
    }

    /// Closes the database; later calls fail. Optional: the journal is consistent without it.
    ///
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)` if SQLite refuses.
    public func close() throws(UploadError) {
        marks.close()
        do { try database.close() } catch { throw .journalFailed(reason: .writeFailed(message: "\(error)")) }
    }

    /// Fault-injection point for tests (`@testable import`): from now on every write the
    /// journal makes — the queueing insert, a batch of row changes, a write-ahead mark — first
    /// asks `decide`, and fails with `journalFailed(reason: .writeFailed)` (a mark: is not
    /// written) when it answers true. Nil, as in production, writes everything.
    ///
    /// - Parameter decide: Whether the write at that step fails; nil to inject nothing.
    func injectFaults(_ decide: (@Sendable (JournalFaultPoint) -> Bool)?) {
        injectedFault.withLock { $0 = decide }
        if let decide {
            marks.injectFaults { mark in decide(.mark(mark)) }
        } else {
            marks.injectFaults(nil)
        }
    }

    /// Throws the injected fault for `point`, if one is set and says so.
    private func failIfInjected(_ point: JournalFaultPoint) throws(UploadError) {
        guard let decide = injectedFault.withLock({ $0 }), decide(point) else { return }
        throw .journalFailed(reason: .writeFailed(message: "injected fault (\(point))"))
    }

    /// Tries whether a journal that failed can be written again, in both the places it writes:
    /// a mark's worth of zeros where the next mark goes (a mark log's reader skips zeros), and a
    /// row of the `form_state` table rewritten (a SQLite transaction, which needs room in the
    /// write-ahead log).
    ///
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)` while it cannot be.
    func probe() throws(UploadError) {
        try failIfInjected(.probe)
        guard marks.probe() else {
            throw .journalFailed(reason: .writeFailed(message: "cannot write the journal's marks in \(marks.path)"))
        }
        try store(Data(String(Date().timeIntervalSince1970).utf8), forKey: "journal-probe")
    }

    /// Checks that the database file is still where it was opened (not removed or replaced),
    /// since SQLite would go on writing to a removed file that no later run can read.
    ///
    /// - Throws: `UploadError.journalFailed(reason: .removed)`.
    func checkStillInPlace() throws(UploadError) {
        guard let now = Self.identity(of: path), now == identity else { throw .journalFailed(reason: .removed(path: path)) }
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    // MARK: - Jobs

    /// Inserts new jobs in one transaction; SQLite assigns their IDs (increasing, never reused).
    ///
    /// - Parameter specs: The jobs' specs.
    /// - Returns: The queued jobs, with their IDs, in the given order.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`; then nothing was inserted.
    public func insert(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJob] {
        zip(try insertIDs(specs), specs).map { UploadJob(id: $0, spec: $1) }
    }

    /// Inserts new jobs in one transaction, as ``insert(_:)`` does, and returns only their IDs:
    /// a queue of 100,000 jobs need not exist twice while it is being recorded.
    ///
    /// - Parameter specs: The jobs' specs.
    /// - Returns: The new jobs' IDs, in the given order.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`; then nothing was inserted.
    public func insertIDs(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJobID] {
        guard !specs.isEmpty else { return [] }
        try failIfInjected(.insert(count: specs.count))
        let now = Date().timeIntervalSince1970
        do {
            return try database.write { db in
                var ids: [UploadJobID] = []
                ids.reserveCapacity(specs.count)
                var json = JournalJSON()
                for spec in specs {
                    ids.append(UploadJobID(try UploadJobRecord.insertQueued(spec, client: client, at: now, json: &json, in: db)))
                }
                return ids
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Applies changes in one transaction, in order.
    ///
    /// - Parameter changes: Row updates and deletions.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`; then none was applied.
    public func apply(_ changes: [JournalChange]) throws(UploadError) {
        try failIfInjected(.apply(changes))
        guard !changes.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        do {
            try database.write { db in
                let delete = try db.cachedStatement(sql: "DELETE FROM \(UploadJobRecord.databaseTableName) WHERE id = ?")
                var json = JournalJSON()
                for change in changes {
                    switch change {
                    case let .update(job, includingSpec):
                        try UploadJobRecord(updating: job, includingSpec: includingSpec, at: now).updateRow(in: db, json: &json)
                    case let .delete(ids):
                        for id in ids { try delete.execute(arguments: [id.rawValue]) }
                    }
                }
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Takes over what earlier runs left: deletes the rows of finished jobs and returns the
    /// restorable ones (``loadRestorableJobs(includingCancelled:)``) — only while no other process
    /// has the journal open, because that process's queued rows are its own live jobs and would
    /// be sent twice.
    ///
    /// - Parameter keepingCancelled: Whether this client's cancelled jobs are kept and returned
    ///   (the interface shows them, to retry or remove) instead of deleted.
    /// - Returns: The jobs.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the other process;
    ///   `.readFailed` or `.writeFailed`.
    public func takeOverRestorableJobs(keepingCancelled: Bool = false) throws(UploadError) -> [UploadJob] {
        try lock.exclusively { () throws(UploadError) -> [UploadJob] in
            try absorbMarksOfEndedProcesses()
            try deleteFinishedJobs(keepingCancelled: keepingCancelled)
            return try loadRestorableJobs(includingCancelled: keepingCancelled)
        }
    }

    /// Reads the marks files of processes that had the journal open and ended (this one holds
    /// the lock exclusively, so no other has it open), writes what they say into the rows in one
    /// transaction, then removes them:
    /// - `succeeded`: the row is succeeded, whatever it says (a success is final);
    /// - `bodyMayComplete(attempt: n)`: the row fails as `interruptedAfterSending` ("may have
    ///   arrived") when that attempt is still its latest — the row says `uploading` with at most
    ///   `n` attempts, or any other unfinished state with fewer (a later row for attempt `n` was
    ///   written after it ended: an answer to retry, or the user's retry).
    private func absorbMarksOfEndedProcesses() throws(UploadError) {
        let files = JournalMarkLog.files(besideJournal: path, excluding: marks.path)
        guard !files.isEmpty else { return }
        var marks: [JournalMark] = []
        for file in files { marks += try JournalMarkLog.marks(inFile: file) }
        if !marks.isEmpty {
            let error = UploadError.transferFailed(reason: .interruptedAfterSending)
            let reason = String(decoding: (try? JSONEncoder().encode(JournaledError(error))) ?? Data(), as: UTF8.self)
            let now = Date().timeIntervalSince1970
            do {
                try database.write { db in
                    let interrupted = try db.cachedStatement(sql: """
                        UPDATE upload_job SET state = 'failed', last_error = ?, last_error_reason = ?, updated_at = ?
                        WHERE id = ? AND ((state = 'uploading' AND attempts <= ?)
                                          OR (state IN ('queued', 'failed', 'cancelled') AND attempts < ?))
                        """)
                    let succeeded = try db.cachedStatement(sql: """
                        UPDATE upload_job SET state = 'succeeded', last_error = NULL, last_error_reason = NULL, updated_at = ?
                        WHERE id = ?
                        """)
                    for case let .bodyMayComplete(id, attempt) in marks {
                        try interrupted.execute(arguments: [error.description, reason, now, id.rawValue, attempt, attempt])
                    }
                    for case let .succeeded(id) in marks {
                        try succeeded.execute(arguments: [now, id.rawValue])
                    }
                }
            } catch {
                throw .journalFailed(reason: .writeFailed(message: "\(error)"))
            }
        }
        for file in files { unlink(file) }
    }

    /// The jobs a later run of this client picks up again: queued, uploading (interrupted) and
    /// failed (and cancelled, if asked), in ID order, as recorded (an interrupted job still says
    /// `uploading`).
    ///
    /// - Parameter includingCancelled: Whether cancelled jobs are picked up too.
    /// - Returns: The jobs.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func loadRestorableJobs(includingCancelled: Bool = false) throws(UploadError) -> [UploadJob] {
        let states = includingCancelled ? "'queued', 'uploading', 'failed', 'cancelled'" : "'queued', 'uploading', 'failed'"
        return try fetchJobs(where: "state IN (\(states)) AND (client = '\(client.rawValue)' OR client IS NULL)")
    }

    /// How many unfinished (queued or interrupted) jobs another client left for its own resume.
    ///
    /// - Parameter other: The other client.
    /// - Returns: The count.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func unfinishedJobCount(of other: JournalClient) throws(UploadError) -> Int {
        do {
            return try database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM upload_job WHERE state IN ('queued', 'uploading') AND client = ?",
                                 arguments: [other.rawValue]) ?? 0
            }
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }

    /// Every job in the journal, in ID order.
    ///
    /// - Returns: The jobs.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func allJobs() throws(UploadError) -> [UploadJob] {
        try fetchJobs(where: "1")
    }

    /// One job as its row records it (progress is never recorded: only the body's length).
    ///
    /// - Parameter id: The job.
    /// - Returns: The job, or nil if there is no such row.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func job(_ id: UploadJobID) throws(UploadError) -> UploadJob? {
        try fetchJobs(where: "id = \(id.rawValue)").first
    }

    /// Deletes the rows of succeeded jobs, and of this client's cancelled jobs unless they are
    /// kept (a restore does this: nobody will see them; another client's cancelled jobs are its
    /// own to show).
    ///
    /// - Parameter keepingCancelled: Whether cancelled jobs are kept.
    /// - Returns: How many rows were deleted.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`.
    @discardableResult
    public func deleteFinishedJobs(keepingCancelled: Bool = false) throws(UploadError) -> Int {
        let cancelled = keepingCancelled ? "" : " OR (state = 'cancelled' AND (client = '\(client.rawValue)' OR client IS NULL))"
        do {
            return try database.write { db in
                try db.execute(sql: "DELETE FROM upload_job WHERE state = 'succeeded'\(cancelled)")
                return db.changesCount
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Queues failed jobs again for this client's next restore (`ferry jobs retry`): each row
    /// that is failed becomes queued and this client's, whichever client failed it. Only while no
    /// other process has the journal open.
    ///
    /// - Parameter ids: The jobs.
    /// - Returns: The IDs that were failed and are now queued.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the other process; `.writeFailed`.
    public func requeueFailedJobs(_ ids: [UploadJobID]) throws(UploadError) -> [UploadJobID] {
        try lock.exclusively { () throws(UploadError) -> [UploadJobID] in
            do {
                return try database.write { db in
                    var requeued: [UploadJobID] = []
                    for id in ids {
                        try db.execute(sql: "UPDATE upload_job SET state = 'queued', client = ?, updated_at = ? WHERE id = ? AND state = 'failed'",
                                       arguments: [client.rawValue, Date().timeIntervalSince1970, id.rawValue])
                        if db.changesCount > 0 { requeued.append(id) }
                    }
                    return requeued
                }
            } catch {
                throw .journalFailed(reason: .writeFailed(message: "\(error)"))
            }
        }
    }

    /// Deletes jobs that are not running (`ferry jobs forget`): failed, succeeded and cancelled
    /// rows, and queued or interrupted ones, which no other process may be sending (only while no
    /// other process has the journal open).
    ///
    /// - Parameter ids: The jobs.
    /// - Returns: How many rows were deleted.
    /// - Throws: `UploadError.journalFailed(reason: .inUse)` naming the other process; `.writeFailed`.
    @discardableResult
    public func forgetJobs(_ ids: [UploadJobID]) throws(UploadError) -> Int {
        try lock.exclusively { () throws(UploadError) -> Int in
            do {
                return try database.write { db in
                    var deleted = 0
                    for id in ids {
                        try db.execute(sql: "DELETE FROM upload_job WHERE id = ?", arguments: [id.rawValue])
                        deleted += db.changesCount
                    }
                    return deleted
                }
            } catch {
                throw .journalFailed(reason: .writeFailed(message: "\(error)"))
            }
        }
    }

    // MARK: - Internals

    private static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE upload_job (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    spec TEXT NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    automatic_retries INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    total_bytes INTEGER,
                    response_status INTEGER,
                    response_headers TEXT,
                    response_body BLOB,
                    response_truncated INTEGER NOT NULL DEFAULT 0,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE TABLE form_state (
                    key TEXT PRIMARY KEY NOT NULL,
                    value BLOB NOT NULL,
                    updated_at REAL NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2-attempt-history") { db in
            try db.execute(sql: "ALTER TABLE upload_job ADD COLUMN attempt_history TEXT")
        }
        migrator.registerMigration("v3-client") { db in
            try db.execute(sql: "ALTER TABLE upload_job ADD COLUMN client TEXT")
        }
        migrator.registerMigration("v4-typed-error") { db in
            try db.execute(sql: "ALTER TABLE upload_job ADD COLUMN last_error_reason TEXT")
        }
        migrator.registerMigration("v5-tus-checkpoint") { db in
            try db.execute(sql: "ALTER TABLE upload_job ADD COLUMN tus_checkpoint TEXT")
        }
        return migrator
    }()

    private func fetchJobs(where condition: String) throws(UploadError) -> [UploadJob] {
        do {
            return try database.read { db in
                let records = try UploadJobRecord.fetchCursor(
                    db, sql: "SELECT * FROM upload_job WHERE \(condition) ORDER BY id")
                var jobs: [UploadJob] = []
                var previousSpec: UploadJobSpec?
                while let record = try records.next() {
                    guard var spec = record.spec else {
                        throw DatabaseError(message: "upload_job row \(record.id ?? 0) has no spec")
                    }
                    // Rows of one batch share their URL, headers and parameters again.
                    if let previousSpec { spec = spec.sharingRequest(with: previousSpec) }
                    previousSpec = spec
                    jobs.append(record.job(spec: spec))
                }
                return jobs
            }
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }

    /// Creates missing directories on the way to `directory` with mode `0700`.
    private static func createDirectories(_ directory: String, journalPath: String) throws(UploadError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .journalFailed(reason: .openFailed(path: journalPath, message: "\(directory) is not a directory"))
            }
            return
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != directory {
            try createDirectories(parent, journalPath: journalPath)
        }
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            let message = String(cString: strerror(errno))
            throw .journalFailed(reason: .openFailed(path: journalPath, message: "cannot create \(directory): \(message)"))
        }
        chmod(directory, 0o700)
    }

    /// Creates the database file with mode `0600` before SQLite opens it; SQLite gives the
    /// `-wal` and `-shm` files the database file's mode.
    private static func createPrivateFile(_ path: String) throws(UploadError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let message = String(cString: strerror(errno))
            throw .journalFailed(reason: .openFailed(path: path, message: message))
        }
        fchmod(descriptor, 0o600)
        closeDescriptor(descriptor)
    }

    /// Makes the database and its `-wal` and `-shm` files `0600`, whatever created them.
    private static func restrictPermissions(ofJournalAt path: String) {
        for file in [path, path + "-wal", path + "-shm"] {
            chmod(file, 0o600)
        }
    }
}

/// `close(2)`, out of reach of `UploadJournal.close()`'s name.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
