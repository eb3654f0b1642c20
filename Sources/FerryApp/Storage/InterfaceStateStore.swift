import Foundation
import GRDB
import Uploading

/// What the interface remembers between runs — its form (`FormSettings`) and whether the user
/// paused the queue — as JSON values under keys, in the `form_state` table of the upload
/// journal's SQLite file (created `0600` in a `0700` directory by `UploadJournal`, because a
/// saved form may hold secret headers).
///
/// Each call opens the file and closes it again: the interface saves on a few user actions only,
/// and the journal's own handle stays the queue's. Safe to use from any thread.
public struct InterfaceStateStore: Sendable {
    /// The key the form is saved under.
    public static let formKey = "form"

    /// The database file's path: the journal's.
    public let path: String

    /// A store in the journal's file.
    ///
    /// - Parameter journal: The open journal; its file and directory already have their
    ///   permissions.
    public init(journal: UploadJournal) {
        path = journal.path
    }

    /// Saves a value as JSON under a key, replacing what was there.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key; one per kind of state.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`.
    public func save<Value: Encodable>(_ value: Value, forKey key: String = formKey) throws(UploadError) {
        do {
            let data = try JSONEncoder().encode(value)
            try withDatabase { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO form_state (key, value, updated_at) VALUES (?, ?, ?)",
                    arguments: [key, data, Date().timeIntervalSince1970]
                )
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// Loads the value saved under a key.
    ///
    /// - Parameters:
    ///   - type: The value's type.
    ///   - key: The key.
    /// - Returns: The value, or nil if none was saved.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`, also when the saved JSON does
    ///   not decode as `type`.
    public func value<Value: Decodable>(_ type: Value.Type, forKey key: String = formKey) throws(UploadError) -> Value? {
        do {
            let data = try withDatabase { db in
                try Data.fetchOne(db, sql: "SELECT value FROM form_state WHERE key = ?", arguments: [key])
            }
            guard let data else { return nil }
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }

    /// Opens the file, makes sure the table exists (the journal's first migration creates it
    /// too), runs `body` in a write transaction and closes the file.
    private func withDatabase<Output>(_ body: (Database) throws -> Output) throws -> Output {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "ferry.app.interface-state"
        let database = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? database.close() }
        return try database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS form_state (
                    key TEXT PRIMARY KEY NOT NULL,
                    value BLOB NOT NULL,
                    updated_at REAL NOT NULL
                )
                """)
            return try body(db)
        }
    }
}
