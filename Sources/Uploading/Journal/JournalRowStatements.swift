import Foundation
import GRDB
import Multipart

/// The prepared `UPDATE`s of one journal transaction: each state change binds a handful of
/// values and steps one statement, whatever the queue's length.
struct JournalRowStatements {
    private let db: Database
    private let encoder = JSONEncoder()
    private var state: Statement?
    private var stateAndResponse: Statement?
    private var spec: Statement?

    init(db: Database) {
        self.db = db
    }

    /// Writes the job's state, attempts, attempt history, retries, last error and total; its
    /// response when it has one; its spec when asked.
    mutating func update(_ job: UploadJob, includingSpec: Bool, at now: Double) throws {
        let id = job.id.rawValue
        let history = job.attemptHistory.isEmpty
            ? nil : String(decoding: try encoder.encode(job.attemptHistory), as: UTF8.self)
        let common: [(any DatabaseValueConvertible)?] = [
            job.state.rawValue, job.attempts, job.automaticRetries, job.lastError?.description,
            job.progress.totalBytes, now, history,
        ]
        if let response = job.response {
            let statement = try prepared(&stateAndResponse, """
                UPDATE upload_job SET state = ?, attempts = ?, automatic_retries = ?, last_error = ?,
                total_bytes = ?, updated_at = ?, attempt_history = ?, response_status = ?,
                response_headers = ?, response_body = ?, response_truncated = ? WHERE id = ?
                """)
            let headers = JournalRowStatements.headerLines(response.headers)
            statement.setUncheckedArguments(StatementArguments(
                common + [response.status, headers, Data(response.body), response.isBodyTruncated, id]
            ))
            try statement.execute()
        } else {
            let statement = try prepared(&state, """
                UPDATE upload_job SET state = ?, attempts = ?, automatic_retries = ?, last_error = ?,
                total_bytes = ?, updated_at = ?, attempt_history = ? WHERE id = ?
                """)
            statement.setUncheckedArguments(StatementArguments(common + [id]))
            try statement.execute()
        }
        if includingSpec {
            let statement = try prepared(&spec, "UPDATE upload_job SET spec = ? WHERE id = ?")
            statement.setUncheckedArguments([String(decoding: try encoder.encode(job.spec), as: UTF8.self), id])
            try statement.execute()
        }
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

    private func prepared(_ slot: inout Statement?, _ sql: String) throws -> Statement {
        if let statement = slot { return statement }
        let statement = try db.cachedStatement(sql: sql)
        slot = statement
        return statement
    }
}
