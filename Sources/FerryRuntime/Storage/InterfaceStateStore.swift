import FoundationEssentials
import UploadModel
import UploadJournal

/// What the interface remembers between runs — its form (`FormSettings`) and whether the user
/// paused the queue — as JSON values under keys, in the `form_state` table of the upload
/// journal's SQLite file (created `0600` in a `0700` directory by `UploadJournal`, because a
/// saved form may hold secret headers; the table by the journal's first migration).
///
/// Reads and writes go through the journal's one database queue
/// (``UploadJournal/store(_:forKey:)``), never a connection of their own. Safe to use from any
/// thread.
public struct InterfaceStateStore: Sendable {
    /// The key the form is saved under.
    public static let formKey = "form"

    /// The journal whose file holds the values.
    public let journal: UploadJournal

    /// A store in the journal's file.
    ///
    /// - Parameter journal: The open journal.
    public init(journal: UploadJournal) {
        self.journal = journal
    }

    /// Saves a value as JSON under a key, replacing what was there.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key; one per kind of state.
    /// - Throws: `UploadError.journalFailed(reason: .writeFailed)`.
    public func save<Value: Encodable>(_ value: Value, forKey key: String = formKey) throws(UploadError) {
        let data: Data
        do { data = try JSONEncoder().encode(value) } catch {
            throw .journalFailed(reason: .writeFailed(message: "\(error)"))
        }
        try journal.store(data, forKey: key)
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
        guard let data = try journal.storedValue(forKey: key) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw .journalFailed(reason: .readFailed(message: "\(error)"))
        }
    }
}
