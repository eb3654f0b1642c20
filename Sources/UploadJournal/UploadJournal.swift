import FileSystem
import FoundationEssentials
import Multipart
import SQLiteDatabase
import Glibc
import UploadModel
import UploadEngine

/// The queue's journal: one SQLite row per job (spec, state, attempts and their history, last
/// error — typed, `JournaledError` —, response; never file contents), mapped by
/// `UploadJobRecord`.
///
/// The database runs in WAL mode with `synchronous = NORMAL`: every committed transaction
/// survives the process being killed (SIGKILL included); closing leaves the WAL for the next run
/// rather than checkpointing it (SQLite checkpoints as it grows). The directory is created `0700`
/// and the database, `-wal` and `-shm` files are `0600`, because job specs hold secrets such as
/// `Authorization` headers.
///
/// Recording a change is an `UPDATE` of one row by primary key, so its cost does not grow with
/// the queue; batches of changes share one transaction. All methods are safe to call from any
/// thread (the connection's `SQLiteQueue` serialises them).
public final class UploadJournal: JournalStore {
    /// The database file's path.
    public let path: String
    /// Whose jobs this handle inserts and restores (rows written before clients were recorded
    /// are anyone's).
    public let client: JournalClient
    /// The one connection to the file, behind the serial queue that runs every use of it.
    let database: SQLiteQueue
    let lock: JournalLock
    /// This process's write-ahead marks (`JournalMarkLog`).
    public let marks: JournalMarkLog
    /// The database file's device and inode when it was opened, to tell that it was removed.
    let identity: FileIdentity

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
        let directory = PathName.parent(of: path)
        try Self.createDirectories(directory.isEmpty ? "." : directory, journalPath: path)
        try Self.createPrivateFile(path)
        lock = try JournalLock(journalPath: path)
        do {
            database = try SQLiteQueue(path: path, label: "ferry.uploading.journal-db")
            try database.perform(Self.setUp)
        } catch {
            throw .journalFailed(reason: .openFailed(path: path, message: "\(error)"))
        }
        Self.restrictPermissions(ofJournalAt: path)
        marks = try JournalMarkLog(journalPath: path)
        identity = Self.identity(of: path) ?? FileIdentity(device: 0, inode: 0)
    }

    /// Where the journal lives by default: `$XDG_STATE_HOME/ferry/journal.sqlite`, or
    /// `~/.local/state/ferry/journal.sqlite` when `XDG_STATE_HOME` is unset or not absolute.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The path.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return PathName.joined(state, "ferry/journal.sqlite")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return PathName.joined(home, ".local/state/ferry/journal.sqlite")
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
        chmod(PathName.parent(of: path), 0o700)
        return journal
    }

    /// Closes the database; later calls fail. Optional: the journal is consistent without it.
    ///
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)` if SQLite refuses.
    public func close() throws(UploadError) {
        marks.close()
        do { try database.close() } catch { throw .journalFailed(reason: .writeFailed(message: "\(error)")) }
    }

    /// Tries whether a journal that failed can be written again, in both the places it writes:
    /// a mark's worth of zeros where the next mark goes (a mark log's reader skips zeros), and a
    /// row of the `form_state` table rewritten (a SQLite transaction, which needs room in the
    /// write-ahead log).
    ///
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)` while it cannot be.
    public func probe() throws(UploadError) {
        guard marks.probe() else {
            throw .journalFailed(reason: .writeFailed(message: "cannot write the journal's marks in \(marks.path)"))
        }
        try store(Data(String(Date().timeIntervalSince1970).utf8), forKey: "journal-probe")
    }

    /// Checks that the database file is still where it was opened (not removed or replaced),
    /// since SQLite would go on writing to a removed file that no later run can read.
    ///
    /// - Throws: `UploadError.journalFailed(reason: .removed)`.
    public func checkStillInPlace() throws(UploadError) {
        guard let now = Self.identity(of: path), now == identity else { throw .journalFailed(reason: .removed(path: path)) }
    }

    static func identity(of path: String) -> FileIdentity? {
        FileStamp.current(of: path)?.stamp.identity
    }
}
