import FoundationEssentials
import Multipart
import SQLiteDatabase
import UploadModel

/// One row of the `upload_job` table: `UploadJournal` inserts, updates and fetches jobs through
/// it, and it alone knows the columns.
///
/// Rows are read by ``init(row:)`` from ``selectSQL``'s columns; they are written by the
/// connection's cached statements: new rows by ``insertQueued(_:client:at:json:in:)``, state
/// changes by ``updateRow(in:json:)`` from `value(of:json:)`, one switch over the columns. The
/// JSON columns — `spec`, `attempt_history`, `last_error_reason`, `tus_checkpoint`,
/// `resumption` — go both ways through `JournalJSON`.
struct UploadJobRecord {
    static let tableName = "upload_job"

    /// The job's ID (the row's primary key).
    var id: Int64
    /// What is sent; nil in a record that updates a row without rewriting its spec.
    var spec: UploadJobSpec?
    /// `UploadJobState`'s raw value.
    var state: String
    /// Attempts started so far.
    var attempts: Int
    /// Automatic retries used since the job was queued or last retried by the user.
    var automaticRetries: Int
    /// The last error's description: all that rows written before `last_error_reason` have.
    var lastError: String?
    /// The last error, typed.
    var lastErrorReason: JournaledError?
    /// The body's length, once known.
    var totalBytes: Int64?
    /// The last response's status; nil when no response arrived (then the other `response_`
    /// columns mean nothing).
    var responseStatus: Int?
    /// Response headers as `Name: value` lines joined by CRLF.
    var responseHeaders: String?
    /// The captured start of the response body.
    var responseBody: Data?
    /// Whether the response body was longer than what was captured.
    var responseTruncated: Bool
    /// The ended attempts, oldest first; nil when there are none.
    var attemptHistory: [UploadAttempt]?
    /// A tus job's upload URL, confirmed offset, file stamp and notes (JSON), so a killed run's
    /// successor goes on from the server's offset.
    var tusCheckpoint: TusCheckpoint?
    /// A resumable request's upload URL and body boundary (JSON), so a killed run's successor
    /// goes on from the server's offset.
    var resumption: ResumableCheckpoint?
    var updatedAt: Double

    /// The columns the record reads and writes, named as in the table.
    enum Column: String, CaseIterable {
        case id, spec, state, attempts
        case automaticRetries = "automatic_retries"
        case lastError = "last_error"
        case lastErrorReason = "last_error_reason"
        case totalBytes = "total_bytes"
        case responseStatus = "response_status"
        case responseHeaders = "response_headers"
        case responseBody = "response_body"
        case responseTruncated = "response_truncated"
        case attemptHistory = "attempt_history"
        case tusCheckpoint = "tus_checkpoint"
        case resumption
        case updatedAt = "updated_at"

        /// The column's index in ``UploadJobRecord/selectSQL``'s rows.
        var index: Int32 { Self.indexes[self]! }

        private static let indexes = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, Int32($0)) })
    }

    /// Selects every column the record reads, in ``Column``'s order; a `WHERE` clause may follow.
    static let selectSQL = "SELECT \(Column.allCases.map(\.rawValue).joined(separator: ", ")) FROM \(tableName)"

    /// The columns a state change writes.
    private static let stateColumns: [Column] = [
        .state, .attempts, .automaticRetries, .lastError, .lastErrorReason, .totalBytes, .updatedAt, .attemptHistory,
        .tusCheckpoint, .resumption,
    ]
    /// The columns a job's response adds to a state change.
    private static let responseColumns: [Column] = [.responseStatus, .responseHeaders, .responseBody, .responseTruncated]

    /// One `UPDATE` of a row by primary key: the columns it writes and its SQL.
    private struct RowUpdate {
        let columns: [Column]
        let sql: String

        init(_ columns: [Column]) {
            self.columns = columns + [.id]
            let assignments = columns.map { "\($0.rawValue) = ?" }.joined(separator: ", ")
            sql = "UPDATE \(UploadJobRecord.tableName) SET \(assignments) WHERE id = ?"
        }
    }

    /// The state changes' updates, built once: without and with a response, then the same with
    /// the spec (indexed as in ``updateRow(in:json:)``).
    private static let rowUpdates: [RowUpdate] = [false, true].flatMap { includingSpec in
        [false, true].map { withResponse in
            RowUpdate(stateColumns + (withResponse ? responseColumns : []) + (includingSpec ? [.spec] : []))
        }
    }

    /// The insert of a queued job's row; the other columns start as their defaults say (no
    /// attempts, no error, no response).
    private static let insertSQL = """
        INSERT INTO \(tableName) (spec, state, client, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
        """

    /// Inserts a new job's row, queued, through a statement the connection caches.
    ///
    /// - Parameters:
    ///   - spec: The job's spec.
    ///   - client: Whose job it is.
    ///   - now: Seconds since 1970.
    ///   - json: Writes the spec (one per transaction, so a batch's shared fields are encoded once).
    ///   - connection: The journal's connection, in a write transaction.
    /// - Returns: The row's ID.
    static func insertQueued(_ spec: UploadJobSpec, client: JournalClient, at now: Double,
                             json: inout JournalJSON, in connection: SQLiteConnection) throws -> Int64 {
        try connection.cachedStatement(insertSQL).execute([
            .text(try json.spec(spec)), .text(UploadJobState.queued.rawValue), .text(client.rawValue), .real(now), .real(now),
        ])
        return connection.lastInsertedRowID
    }

    /// The record a row of ``selectSQL`` describes.
    ///
    /// - Parameter row: The statement, on a row.
    /// - Throws: `DecodingError` when a JSON column does not decode.
    init(row: SQLiteStatement) throws {
        id = row.int64(Column.id.index) ?? 0
        spec = try Self.decode(UploadJobSpec.self, from: row, column: .spec)
        state = row.text(Column.state.index) ?? ""
        attempts = Int(row.int64(Column.attempts.index) ?? 0)
        automaticRetries = Int(row.int64(Column.automaticRetries.index) ?? 0)
        lastError = row.text(Column.lastError.index)
        lastErrorReason = try Self.decode(JournaledError.self, from: row, column: .lastErrorReason)
        totalBytes = row.int64(Column.totalBytes.index)
        responseStatus = row.int64(Column.responseStatus.index).map { Int($0) }
        responseHeaders = row.text(Column.responseHeaders.index)
        responseBody = row.data(Column.responseBody.index)
        responseTruncated = (row.int64(Column.responseTruncated.index) ?? 0) != 0
        attemptHistory = try Self.decode([UploadAttempt].self, from: row, column: .attemptHistory)
        tusCheckpoint = try Self.decode(TusCheckpoint.self, from: row, column: .tusCheckpoint)
        resumption = try Self.decode(ResumableCheckpoint.self, from: row, column: .resumption)
        updatedAt = row.double(Column.updatedAt.index) ?? 0
    }

    /// A JSON column's value; nil for NULL.
    private static func decode<Value: Decodable>(_ type: Value.Type, from row: SQLiteStatement, column: Column) throws -> Value? {
        try row.data(column.index).map { try JournalJSON.value(type, from: $0) }
    }

    /// The record that writes a job's state, and its spec when asked, to its row.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - includingSpec: Whether the spec is rewritten too.
    ///   - now: Seconds since 1970.
    init(updating job: UploadJob, includingSpec: Bool, at now: Double) {
        id = job.id.rawValue
        spec = includingSpec ? job.spec : nil
        state = job.state.rawValue
        attempts = job.attempts
        automaticRetries = job.automaticRetries
        lastError = job.lastError?.description
        lastErrorReason = job.lastError.map(JournaledError.init)
        totalBytes = job.progress.totalBytes
        attemptHistory = job.attemptHistory.isEmpty ? nil : job.attemptHistory
        tusCheckpoint = job.tus
        resumption = job.resumption
        responseStatus = job.response?.status
        responseHeaders = job.response.map { Self.headerLines($0.headers) }
        responseBody = job.response.map { Data($0.body) }
        responseTruncated = job.response?.isBodyTruncated ?? false
        updatedAt = now
    }

    /// Writes the record's state (its response when it has one, its spec when it has one) to its
    /// row: one `UPDATE` by primary key, through a statement the connection caches. A row deleted
    /// meanwhile stays deleted.
    ///
    /// - Parameters:
    ///   - connection: The journal's connection, in a write transaction.
    ///   - json: Writes the spec, when the record has one (one per transaction).
    func updateRow(in connection: SQLiteConnection, json: inout JournalJSON) throws {
        let update = Self.rowUpdates[(spec == nil ? 0 : 2) + (responseStatus == nil ? 0 : 1)]
        var values: [SQLiteValue] = []
        values.reserveCapacity(update.columns.count)
        for column in update.columns { values.append(try value(of: column, json: &json)) }
        try connection.cachedStatement(update.sql).execute(values)
    }

    /// A column's value as SQLite stores it: JSON columns as text.
    private func value(of column: Column, json: inout JournalJSON) throws -> SQLiteValue {
        switch column {
        case .id: return .integer(id)
        case .spec: return SQLiteValue(try spec.map { try json.spec($0) })
        case .state: return .text(state)
        case .attempts: return SQLiteValue(attempts)
        case .automaticRetries: return SQLiteValue(automaticRetries)
        case .lastError: return SQLiteValue(lastError)
        case .lastErrorReason: return SQLiteValue(try lastErrorReason.map { try json.text($0) })
        case .totalBytes: return SQLiteValue(totalBytes)
        case .responseStatus: return SQLiteValue(responseStatus)
        case .responseHeaders: return SQLiteValue(responseHeaders)
        case .responseBody: return SQLiteValue(responseBody)
        case .responseTruncated: return SQLiteValue(responseTruncated)
        case .attemptHistory: return SQLiteValue(try attemptHistory.map { try json.text($0) })
        case .tusCheckpoint: return SQLiteValue(try tusCheckpoint.map { try json.text($0) })
        case .resumption: return SQLiteValue(try resumption.map { try json.text($0) })
        case .updatedAt: return .real(updatedAt)
        }
    }

    /// The job the row describes. Its last error comes back typed; from a row that only has its
    /// description, as `UploadError.recorded(description:)`.
    ///
    /// - Parameter spec: The spec to use: the row's, possibly sharing a previous row's request.
    /// - Returns: The job.
    func job(spec: UploadJobSpec) -> UploadJob {
        UploadJob(
            id: UploadJobID(id),
            spec: spec,
            state: UploadJobState(rawValue: state) ?? .failed,
            progress: UploadProgress(totalBytes: totalBytes),
            attempts: attempts,
            automaticRetries: automaticRetries,
            lastError: lastErrorReason?.error ?? lastError.map { .recorded(description: $0) },
            response: responseStatus.map { status in
                UploadResponse(
                    status: status, headers: responseHeaders.map(Self.headers(fromLines:)) ?? [],
                    body: responseBody.map { [UInt8]($0) } ?? [], isBodyTruncated: responseTruncated
                )
            },
            attemptHistory: attemptHistory ?? [],
            tus: tusCheckpoint,
            resumption: resumption
        )
    }

    /// Response headers as stored: `Name: value` lines joined by CRLF (HTTP forbids CR and LF
    /// inside names and values, so the lines split back unambiguously).
    static func headerLines(_ headers: [HeaderField]) -> String {
        headers.map { "\($0.name): \($0.value)" }.joined(separator: "\r\n")
    }

    /// Parses `headerLines(_:)`.
    static func headers(fromLines text: String) -> [HeaderField] {
        guard !text.isEmpty else { return [] }
        return text.components(separatedBy: "\r\n").map { line in
            guard let colon = line.firstIndex(of: ":") else { return HeaderField(name: line, value: "") }
            let value = line[line.index(after: colon)...]
            return HeaderField(name: String(line[..<colon]), value: String(value.hasPrefix(" ") ? value.dropFirst() : value))
        }
    }
}
