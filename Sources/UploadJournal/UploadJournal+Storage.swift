import FileSystem
import FoundationEssentials
import Multipart
import SQLiteDatabase
import Glibc
import UploadModel

// The connection's set-up, row queries and the files' creation and permissions.
extension UploadJournal {
    /// Sets the connection up: a busy timeout of 10 s, WAL mode with `synchronous = NORMAL`, the
    /// WAL left for the next run when the journal closes (`leaveWALOnClose()`: a checkpoint at
    /// every close synced the WAL and the database, and a WAL made anew at every run synced its
    /// header and the folder — four `fdatasync`s for a one-file `ferry send`, ~10 ms each while
    /// another process writes); then applies the schema's migrations (`JournalSchema`).
    ///
    /// - Parameter connection: The journal's new connection.
    /// - Throws: `SQLiteError`, also when the file will not go into WAL mode.
    static func setUp(_ connection: SQLiteConnection) throws {
        try connection.setBusyTimeout(milliseconds: 10_000)
        let mode = try connection.prepare("PRAGMA journal_mode = WAL").rows { $0.text(0) }.first
        guard mode == "wal" else {
            throw SQLiteError(extendedCode: 1 /* SQLITE_ERROR */, message: "could not activate WAL Mode at path: \(connection.path)")
        }
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.leaveWALOnClose()
        try JournalSchema.migrate(connection)
    }

    func fetchJobs(where condition: String) throws(UploadError) -> [UploadJob] {
        do {
            return try database.perform { connection in
                let statement = try connection.prepare("\(UploadJobRecord.selectSQL) WHERE \(condition) ORDER BY id")
                var previousSpec: UploadJobSpec?
                return try statement.rows { row in
                    let record = try UploadJobRecord(row: row)
                    guard var spec = record.spec else {
                        throw UploadError.journalFailed(reason: .readFailed(message: "upload_job row \(record.id) has no spec"))
                    }
                    // Rows of one batch share their URL, headers and parameters again.
                    if let previousSpec { spec = spec.sharingRequest(with: previousSpec) }
                    previousSpec = spec
                    return record.job(spec: spec)
                }
            }
        } catch let error as UploadError {
            throw error
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
