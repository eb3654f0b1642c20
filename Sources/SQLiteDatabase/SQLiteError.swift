import CSQLite

/// A failure SQLite reported: its extended result code and its message, and the SQL it was
/// running when there was one.
///
/// Its description reads as GRDB's did, which the journal's users have seen in its errors:
/// `SQLite error 13: database or disk is full - while executing `INSERT …``.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`, …).
    public let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`, or the message `sqlite3_exec` gave).
    public let message: String
    /// The SQL being prepared or run, when the error came from a statement.
    public let sql: String?

    /// An error with a code and a message.
    ///
    /// - Parameters:
    ///   - extendedCode: SQLite's extended result code.
    ///   - message: What went wrong.
    ///   - sql: The SQL being prepared or run, if any.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The error a connection reports for the call that just failed (`sqlite3_extended_errcode`
    /// and `sqlite3_errmsg`).
    ///
    /// - Parameters:
    ///   - handle: The connection; nil when opening it could not even allocate one.
    ///   - code: The failed call's result code, used when there is no connection to ask.
    ///   - sql: The SQL being prepared or run, if any.
    init(connection handle: OpaquePointer?, code: Int32, sql: String? = nil) {
        if let handle {
            self.init(extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        } else {
            self.init(extendedCode: code, message: String(cString: sqlite3_errstr(code)), sql: sql)
        }
    }

    /// The error of a connection used after it was closed (`SQLITE_MISUSE`).
    ///
    /// - Parameter path: The database file's path.
    /// - Returns: The error.
    static func closed(_ path: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: "the connection to \(path) is closed")
    }

    /// The primary result code (`SQLITE_FULL`, `SQLITE_READONLY`, `SQLITE_BUSY`, …): the extended
    /// code's low byte.
    public var primaryCode: Int32 { extendedCode & 0xFF }

    public var description: String {
        var text = "SQLite error \(primaryCode): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
