import FoundationEssentials
import GRDB
import Multipart

/// One row of the `upload_job` table, mapped by GRDB: `UploadJournal` inserts, updates and
/// fetches jobs through it, and it alone knows the columns.
///
/// Rows decode through `Decodable` (JSON columns — `spec`, `attempt_history`,
/// `last_error_reason` — with a plain `JSONDecoder`); they are written by cached statements:
/// new rows by ``insertQueued(_:client:at:json:in:)``, state changes by ``updateRow(in:json:)``
/// from `databaseValue(of:json:)`, one switch over the columns. GRDB's `Encodable` path, its
/// record inserts and its `update(_:columns:)`, which rebuilds its column sets on every call,
/// made the journal's writes 2–5 times slower. JSON columns keep the plain `JSONEncoder` shape
/// the journal always wrote; `JournalJSON` writes the spec and the attempt history in it.
struct UploadJobRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "upload_job"

    /// The job's ID; nil until SQLite assigns it on insert.
    var id: Int64?
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
    /// `JournalClient`'s raw value; nil in rows written before clients were recorded.
    var client: String?
    /// When the row was inserted; nil in a record that updates a row.
    var createdAt: Double?
    var updatedAt: Double

    enum CodingKeys: String, CodingKey {
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
        case client
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The columns a state change writes.
    private static let stateColumns: [CodingKeys] = [
        .state, .attempts, .automaticRetries, .lastError, .lastErrorReason, .totalBytes, .updatedAt, .attemptHistory,
        .tusCheckpoint,
    ]
    /// The columns a job's response adds to a state change.
    private static let responseColumns: [CodingKeys] = [.responseStatus, .responseHeaders, .responseBody, .responseTruncated]

    /// One `UPDATE` of a row by primary key: the columns it writes and its SQL.
    private struct RowUpdate {
        let columns: [CodingKeys]
        let sql: String

        init(_ columns: [CodingKeys]) {
            self.columns = columns + [.id]
            let assignments = columns.map { "\($0.stringValue) = ?" }.joined(separator: ", ")
            sql = "UPDATE \(UploadJobRecord.databaseTableName) SET \(assignments) WHERE id = ?"
        }
    }

    /// The state changes' updates, built once: without and with a response, then the same with
    /// the spec (indexed as in ``updateRow(in:)``).
    private static let rowUpdates: [RowUpdate] = [false, true].flatMap { includingSpec in
        [false, true].map { withResponse in
            RowUpdate(stateColumns + (withResponse ? responseColumns : []) + (includingSpec ? [.spec] : []))
        }
    }

    private static let jsonEncoder = JSONEncoder()
    private static let jsonDecoder = JSONDecoder()

    static func databaseJSONDecoder(for column: String) -> JSONDecoder { jsonDecoder }

    /// The insert of a queued job's row; the other columns start as their defaults say (no
    /// attempts, no error, no response).
    private static let insertSQL = """
        INSERT INTO \(databaseTableName) (spec, state, client, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
        """

    /// Inserts a new job's row, queued, through a statement the database caches.
    ///
    /// - Parameters:
    ///   - spec: The job's spec.
    ///   - client: Whose job it is.
    ///   - now: Seconds since 1970.
    ///   - json: Writes the spec (one per transaction, so a batch's shared fields are encoded once).
    ///   - db: The database, in a write transaction.
    /// - Returns: The row's ID.
    static func insertQueued(_ spec: UploadJobSpec, client: JournalClient, at now: Double,
                             json: inout JournalJSON, in db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(sql: insertSQL)
        statement.setUncheckedArguments([try json.spec(spec), UploadJobState.queued.rawValue, client.rawValue, now, now])
        try statement.execute()
        return db.lastInsertedRowID
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
        responseStatus = job.response?.status
        responseHeaders = job.response.map { Self.headerLines($0.headers) }
        responseBody = job.response.map { Data($0.body) }
        responseTruncated = job.response?.isBodyTruncated ?? false
        updatedAt = now
    }

    /// Writes the record's state (its response when it has one, its spec when it has one) to its
    /// row: one `UPDATE` by primary key, through a statement the database caches. A row deleted
    /// meanwhile stays deleted.
    ///
    /// - Parameters:
    ///   - db: The database, in a write transaction.
    ///   - json: Writes the spec, when the record has one (one per transaction).
    func updateRow(in db: Database, json: inout JournalJSON) throws {
        let update = Self.rowUpdates[(spec == nil ? 0 : 2) + (responseStatus == nil ? 0 : 1)]
        let statement = try db.cachedStatement(sql: update.sql)
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(update.columns.count)
        for column in update.columns { values.append(try databaseValue(of: column, json: &json)) }
        statement.setUncheckedArguments(StatementArguments(values))
        try statement.execute()
    }

    /// A column's value as SQLite stores it: JSON columns as text.
    private func databaseValue(of column: CodingKeys, json: inout JournalJSON) throws -> (any DatabaseValueConvertible)? {
        switch column {
        case .id: return id
        case .spec: return try spec.map { try json.spec($0) }
        case .state: return state
        case .attempts: return attempts
        case .automaticRetries: return automaticRetries
        case .lastError: return lastError
        case .lastErrorReason: return try lastErrorReason.map(Self.json)
        case .totalBytes: return totalBytes
        case .responseStatus: return responseStatus
        case .responseHeaders: return responseHeaders
        case .responseBody: return responseBody
        case .responseTruncated: return responseTruncated
        case .attemptHistory: return attemptHistory.map(JournalJSON.attempts)
        case .tusCheckpoint: return try tusCheckpoint.map(Self.json)
        case .client: return client
        case .createdAt: return createdAt
        case .updatedAt: return updatedAt
        }
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try jsonEncoder.encode(value), as: UTF8.self)
    }

    /// The job the row describes. Its last error comes back typed; from a row that only has its
    /// description, as `UploadError.recorded(description:)`.
    ///
    /// - Parameter spec: The spec to use: the row's, possibly sharing a previous row's request.
    /// - Returns: The job.
    func job(spec: UploadJobSpec) -> UploadJob {
        UploadJob(
            id: UploadJobID(id ?? 0),
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
            tus: tusCheckpoint
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
