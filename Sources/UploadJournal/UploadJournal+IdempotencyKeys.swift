import FoundationEssentials
import SQLiteDatabase
import UploadModel

/// What the journal keeps for `Idempotency-Key` (``IdempotencyKey``), in its `form_state` table:
/// its own identity, the prefix of every key its jobs carry, and the URLs whose server has shown
/// it honours keys, so a later run re-sends an unanswered job there as this one would.
extension UploadJournal {
    /// The `form_state` key of the journal's identity.
    static let identityKey = "journal-identity"
    /// The prefix of the `form_state` keys naming a URL that honours `Idempotency-Key`.
    static let honouredURLKeyPrefix = "idempotency-key-honoured "

    /// The prefix of its jobs' `Idempotency-Key`s: a random UUID drawn the first time it is asked
    /// for and kept. Two processes asking at once get the same one (the first write wins).
    ///
    /// - Returns: The prefix.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`.
    public func idempotencyKeyPrefix() throws(UploadError) -> String {
        do {
            return try database.write { connection in
                try connection.cachedStatement("INSERT OR IGNORE INTO form_state (key, value, updated_at) VALUES (?, ?, ?)")
                    .execute([.text(Self.identityKey), .blob(Data(UUID().uuidString.lowercased().utf8)),
                              .real(Date().timeIntervalSince1970)])
                let select = try connection.cachedStatement("SELECT value FROM form_state WHERE key = ?")
                let stored = try select.rows([.text(Self.identityKey)]) { $0.data(0) }.first ?? nil
                return String(decoding: stored ?? Data(), as: UTF8.self)
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }

    /// The URLs whose server has named a request's `Idempotency-Key` back in an answer.
    ///
    /// - Returns: The URLs, as jobs name them.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func urlsHonouringIdempotencyKeys() throws(UploadError) -> Set<String> {
        do {
            return try database.perform { connection in
                let select = try connection.cachedStatement("SELECT key FROM form_state WHERE substr(key, 1, ?) = ?")
                let keys = try select.rows([.integer(Int64(Self.honouredURLKeyPrefix.utf8.count)), .text(Self.honouredURLKeyPrefix)]) {
                    $0.text(0)
                }
                return Set(keys.compactMap { $0.map { String($0.dropFirst(Self.honouredURLKeyPrefix.count)) } })
            }
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }

    /// Records, inside a write, that `url`'s server honours `Idempotency-Key`.
    static func recordHonouring(_ url: String, in connection: SQLiteConnection, at now: Double) throws {
        try connection.cachedStatement("INSERT OR REPLACE INTO form_state (key, value, updated_at) VALUES (?, ?, ?)")
            .execute([.text(honouredURLKeyPrefix + url), .blob(Data("1".utf8)), .real(now)])
    }
}
