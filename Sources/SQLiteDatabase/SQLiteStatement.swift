import CSQLite
import FoundationEssentials

/// A prepared statement (`sqlite3_stmt`): bind values to its `?` parameters, step through its
/// rows, read their columns by index (0-based, in the order the SQL names them).
///
/// Every run starts with ``bind(_:)`` (which resets the statement), and ``execute(_:)`` and
/// ``rows(_:_:)`` reset it again when they end, so a cached statement never holds a read
/// transaction open between uses. Like its connection, a statement **must** be used from one
/// thread at a time; it is finalized when released.
public final class SQLiteStatement {
    /// The statement's SQL.
    public let sql: String
    private let handle: OpaquePointer

    /// Prepares one statement on a connection.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement.
    ///   - connection: The connection's handle.
    /// - Throws: `SQLiteError` when SQLite cannot prepare it.
    init(sql: String, connection: OpaquePointer) throws(SQLiteError) {
        self.sql = sql
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(connection: connection, code: code, sql: sql)
        }
        handle = statement
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters in order (the first to `?1`).
    ///
    /// - Parameter values: One value per parameter.
    /// - Throws: `SQLiteError` when SQLite refuses a value (a wrong parameter count, say).
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case let .integer(integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case let .real(real):
                code = sqlite3_bind_double(handle, index, real)
            case var .text(text):
                code = text.withUTF8 { bytes in
                    sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
                }
            case let .blob(data):
                code = data.withUnsafeBytes { bytes in
                    // A nil base address would bind NULL: an empty blob is a zero-length one.
                    guard let base = bytes.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
                    return sqlite3_bind_blob(handle, index, base, Int32(bytes.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    /// Steps once.
    ///
    /// - Returns: True when a row is ready to read, false when the statement is done.
    /// - Throws: `SQLiteError` (a full disk, a busy database past the busy timeout, a
    ///   constraint, …).
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw error(code)
        }
    }

    /// Resets the statement, ending its read of the database; its bindings stay.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `values`, runs the statement to its end, and resets it.
    ///
    /// - Parameter values: One value per parameter.
    /// - Throws: `SQLiteError`.
    public func execute(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        defer { reset() }
        while try step() {}
    }

    /// Binds `values`, reads every row with `row`, and resets the statement.
    ///
    /// - Parameters:
    ///   - values: One value per parameter.
    ///   - row: Reads the current row (through the statement's column accessors).
    /// - Returns: What `row` returned for each row, in order.
    /// - Throws: `SQLiteError`, or what `row` throws.
    public func rows<Row>(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> Row) throws -> [Row] {
        try bind(values)
        defer { reset() }
        var rows: [Row] = []
        while try step() { rows.append(try row(self)) }
        return rows
    }

    /// Whether a column of the current row is NULL.
    ///
    /// - Parameter column: The column's index.
    /// - Returns: True for NULL.
    public func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// A column of the current row as an integer.
    ///
    /// - Parameter column: The column's index.
    /// - Returns: The integer, or nil for NULL.
    public func int64(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column)
    }

    /// A column of the current row as a real.
    ///
    /// - Parameter column: The column's index.
    /// - Returns: The number, or nil for NULL.
    public func double(_ column: Int32) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(handle, column)
    }

    /// A column of the current row as UTF-8 text.
    ///
    /// - Parameter column: The column's index.
    /// - Returns: The text, or nil for NULL.
    public func text(_ column: Int32) -> String? {
        guard !isNull(column), let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    /// A column of the current row as bytes (text columns give their UTF-8 bytes).
    ///
    /// - Parameter column: The column's index.
    /// - Returns: The bytes, or nil for NULL.
    public func data(_ column: Int32) -> Data? {
        guard !isNull(column) else { return nil }
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// The error the statement's connection reports for a failed call.
    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
    }
}
