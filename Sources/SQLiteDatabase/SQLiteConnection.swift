import CSQLite

/// One connection to a SQLite database file (`sqlite3`), opened read-write (created if
/// missing) with extended result codes, and a cache of prepared statements for the SQL it runs
/// again and again.
///
/// Not thread-safe: a connection **must** be used from one thread at a time (``SQLiteQueue``
/// runs every use on its serial queue). It is closed when released, or by ``close()``.
public final class SQLiteConnection {
    /// The database file's path.
    public let path: String
    private var handle: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - Parameter path: The database file's path.
    /// - Throws: `SQLiteError` when SQLite cannot open it.
    public init(path: String) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Sets how long a statement waits for another connection's lock before it fails with
    /// `SQLITE_BUSY` (`sqlite3_busy_timeout`).
    ///
    /// - Parameter milliseconds: The longest wait.
    /// - Throws: `SQLiteError` once the connection is closed.
    public func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        sqlite3_busy_timeout(try open(), milliseconds)
    }

    /// Makes closing the last connection to a WAL-mode database leave the WAL for the next
    /// one to go on with (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`) instead of checkpointing it into
    /// the database and removing it, which syncs the WAL and the database file. Committed
    /// transactions are in the WAL either way; SQLite checkpoints it as it grows
    /// (`wal_autocheckpoint`), and removes a WAL left beside a database file that is empty, so a
    /// database deleted alone starts empty.
    ///
    /// - Throws: `SQLiteError` once the connection is closed or when SQLite refuses.
    public func leaveWALOnClose() throws(SQLiteError) {
        let handle = try open()
        let code = csqlite_set_no_checkpoint_on_close(handle, 1)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code) }
    }

    /// Runs SQL text, one or several statements separated by semicolons, without parameters
    /// (`sqlite3_exec`).
    ///
    /// - Parameter sql: The statements.
    /// - Throws: `SQLiteError` from the first statement that fails; the ones before it ran.
    public func execute(_ sql: String) throws(SQLiteError) {
        let handle = try open()
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            defer { sqlite3_free(message) }
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Prepares a statement the caller owns (finalized when released).
    ///
    /// - Parameter sql: One SQL statement.
    /// - Returns: The statement.
    /// - Throws: `SQLiteError`.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(sql: sql, connection: open())
    }

    /// The connection's prepared statement for `sql`, prepared on first use and kept until the
    /// connection closes: for statements run many times.
    ///
    /// - Parameter sql: One SQL statement.
    /// - Returns: The statement.
    /// - Throws: `SQLiteError`.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE`: it takes the write lock at once, waiting
    /// up to the busy timeout for it), committed when `body` returns and rolled back when it
    /// throws or the commit fails.
    ///
    /// - Parameter body: The transaction's work.
    /// - Returns: What `body` returned.
    /// - Throws: `SQLiteError`, or what `body` threw.
    public func transaction<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try cachedStatement("BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let result = try body(self)
            try cachedStatement("COMMIT TRANSACTION").execute()
            return result
        } catch {
            // A failed COMMIT or statement may have ended the transaction already (SQLite rolls
            // back on a full disk, for one): roll back only what is still open.
            if let handle, sqlite3_get_autocommit(handle) == 0 {
                try? cachedStatement("ROLLBACK TRANSACTION").execute()
            }
            throw error
        }
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed (`sqlite3_changes`).
    public var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// The row ID of the last successful `INSERT` (`sqlite3_last_insert_rowid`).
    public var lastInsertedRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Finalizes the cached statements and closes the connection; later uses fail with
    /// `SQLITE_MISUSE`. Statements still held elsewhere are finalized when released.
    ///
    /// - Throws: `SQLiteError` when SQLite refuses to close.
    public func close() throws(SQLiteError) {
        guard let handle else { return }
        cache.removeAll()
        let code = sqlite3_close_v2(handle)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code) }
        self.handle = nil
    }

    /// The open connection's handle.
    private func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError.closed(path) }
        return handle
    }
}
