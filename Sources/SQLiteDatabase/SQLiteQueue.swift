import Dispatch

/// One ``SQLiteConnection`` behind a serial `DispatchQueue`: every use of the connection runs
/// on that queue, one at a time, and the caller waits for it. Safe to use from any thread.
///
/// Uses **must not** nest: calling ``perform(_:)`` or ``write(_:)`` from inside another one
/// deadlocks.
public final class SQLiteQueue: @unchecked Sendable {
    // @unchecked: `connection`, not thread-safe itself, is only used on `queue`.
    private let queue: DispatchQueue
    private let connection: SQLiteConnection

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: The database file's path.
    ///   - label: The serial queue's label (`ferry.<module>.<role>`).
    /// - Throws: `SQLiteError` when SQLite cannot open it.
    public init(path: String, label: String) throws(SQLiteError) {
        queue = DispatchQueue(label: label)
        connection = try SQLiteConnection(path: path)
    }

    /// Runs `body` with the connection on the queue, without a transaction of its own (one
    /// statement is its own transaction; `body` may begin one with
    /// ``SQLiteConnection/transaction(_:)``).
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw (the connection's statements fail with `SQLITE_MISUSE` once
    ///   it is closed).
    public func perform<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try queue.sync { try body(connection) }
    }

    /// Runs `body` on the queue in one write transaction (``SQLiteConnection/transaction(_:)``):
    /// all of its changes are committed, or none.
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` returned.
    /// - Throws: `SQLiteError`, or what `body` threw; then nothing was committed.
    public func write<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try perform { connection in try connection.transaction(body) }
    }

    /// Closes the connection; later uses fail.
    ///
    /// - Throws: `SQLiteError` when SQLite refuses to close.
    public func close() throws(SQLiteError) {
        try queue.sync { Result { () throws(SQLiteError) in try connection.close() } }.get()
    }
}
