import FoundationEssentials
import SQLiteDatabase
import UploadModel

/// Small values that programs keep beside the queue (the interface's form and pause), in the
/// journal's `form_state` table (created by its first migration), through the journal's one
/// connection and its queue: no second connection to the file.
extension UploadJournal {
    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The bytes, or nil when nothing is stored there.
    /// - Throws: `UploadError.journalFailed(reason: .readFailed)`.
    public func storedValue(forKey key: String) throws(UploadError) -> Data? {
        do {
            return try database.perform { connection in
                let select = try connection.cachedStatement("SELECT value FROM form_state WHERE key = ?")
                return try select.rows([.text(key)]) { $0.data(0) }.first ?? nil
            }
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }

    /// Stores a value under a key, replacing what was there.
    ///
    /// - Parameters:
    ///   - value: The bytes.
    ///   - key: The key.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`.
    public func store(_ value: Data, forKey key: String) throws(UploadError) {
        do {
            try database.write { connection in
                try connection.cachedStatement("INSERT OR REPLACE INTO form_state (key, value, updated_at) VALUES (?, ?, ?)")
                    .execute([.text(key), .blob(value), .real(Date().timeIntervalSince1970)])
            }
        } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
    }
}
