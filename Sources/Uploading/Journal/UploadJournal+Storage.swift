import FoundationEssentials
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

// The schema (its migrations), row queries and the files' creation and permissions.
extension UploadJournal {
    static let migrator: DatabaseMigrator = {
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

    func fetchJobs(where condition: String) throws(UploadError) -> [UploadJob] {
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
    static func createDirectories(_ directory: String, journalPath: String) throws(UploadError) {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory else {
                throw .journalFailed(reason: .openFailed(path: journalPath, message: "\(directory) is not a directory"))
            }
            return
        }
        let parent = PathName.parent(of: directory)
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
    static func createPrivateFile(_ path: String) throws(UploadError) {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let message = String(cString: strerror(errno))
            throw .journalFailed(reason: .openFailed(path: path, message: message))
        }
        fchmod(descriptor, 0o600)
        closeDescriptor(descriptor)
    }

    /// Makes the database and its `-wal` and `-shm` files `0600`, whatever created them.
    static func restrictPermissions(ofJournalAt path: String) {
        for file in [path, path + "-wal", path + "-shm"] {
            chmod(file, 0o600)
        }
    }
}

/// `close(2)`, out of reach of `UploadJournal.close()`'s name.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
