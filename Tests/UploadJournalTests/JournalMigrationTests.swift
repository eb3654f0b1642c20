import Foundation
import Multipart
import SQLiteDatabase
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadJournal

/// Journals that Ferry wrote through GRDB (up to GRDB 7.10): the schema it built and the
/// `grdb_migrations` table its `DatabaseMigrator` kept, made here with raw SQL as GRDB made them.
@Suite("Journals GRDB wrote")
struct JournalMigrationTests {
    /// Every migration, in the order GRDB applied and recorded them.
    static let allIdentifiers = ["v1", "v2-attempt-history", "v3-client", "v4-typed-error", "v5-tus-checkpoint", "v6-resumption"]

    /// The first version's tables, as GRDB's `v1` migration created them.
    static let firstVersionSchema = """
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
        CREATE TABLE upload_job (
            id INTEGER PRIMARY KEY AUTOINCREMENT, spec TEXT NOT NULL, state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, automatic_retries INTEGER NOT NULL DEFAULT 0,
            last_error TEXT, total_bytes INTEGER, response_status INTEGER, response_headers TEXT,
            response_body BLOB, response_truncated INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL, updated_at REAL NOT NULL);
        CREATE TABLE form_state (key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL, updated_at REAL NOT NULL);
        INSERT INTO grdb_migrations VALUES ('v1');
        """

    static func spec(_ name: String) -> UploadJobSpec {
        UploadJobSpec(url: "https://example.test/upload", headers: [HeaderField(name: "Authorization", value: "Bearer s")],
                      files: [QueuedFile(path: "/data/\(name)", size: 1234, modificationTimeNanoseconds: 1_700_000_000_000_000_000)])
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// The identifiers `grdb_migrations` lists, in the order they were recorded.
    static func recordedMigrations(at path: String) throws -> [String?] {
        let database = try SQLiteConnection(path: path)
        defer { try? database.close() }
        return try database.prepare("SELECT identifier FROM grdb_migrations ORDER BY rowid").rows { $0.text(0) }
    }

    @Test("a journal at GRDB's last schema opens without migrating again; its rows and form are read, new rows written")
    func opensTheLastGRDBSchema() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let spec = Self.spec("old.bin")
        let error = UploadError.serverRejected(status: 503, retryAfter: nil)
        let database = try SQLiteConnection(path: path)
        #expect(try database.prepare("PRAGMA journal_mode = WAL").rows { $0.text(0) } == ["wal"])
        try database.transaction { db in
            try db.execute(Self.firstVersionSchema + """
                ALTER TABLE upload_job ADD COLUMN attempt_history TEXT;
                INSERT INTO grdb_migrations VALUES ('v2-attempt-history');
                ALTER TABLE upload_job ADD COLUMN client TEXT;
                INSERT INTO grdb_migrations VALUES ('v3-client');
                ALTER TABLE upload_job ADD COLUMN last_error_reason TEXT;
                INSERT INTO grdb_migrations VALUES ('v4-typed-error');
                ALTER TABLE upload_job ADD COLUMN tus_checkpoint TEXT;
                INSERT INTO grdb_migrations VALUES ('v5-tus-checkpoint');
                """)
            try db.prepare("""
                INSERT INTO upload_job (spec, state, attempts, last_error, last_error_reason, client, created_at, updated_at)
                VALUES (?, 'failed', 2, ?, ?, 'send', 1, 2)
                """).execute([.text(try Self.json(spec)), .text(error.description), .text(try Self.json(JournaledError(error)))])
            try db.prepare("INSERT INTO form_state (key, value, updated_at) VALUES ('form', ?, 0)").execute([.blob(Data("{}".utf8))])
        }
        try database.close()

        let journal = try UploadJournal(path: path)
        let restored = try journal.loadRestorableJobs()
        #expect(restored.map(\.spec) == [spec])
        #expect(restored.map(\.state) == [.failed])
        #expect(restored.map(\.attempts) == [2])
        #expect(restored.map(\.lastError) == [error])
        #expect(try journal.storedValue(forKey: "form") == Data("{}".utf8))
        let added = try journal.insert([Self.spec("new.bin")])
        #expect(added.map(\.id.rawValue) == [restored[0].id.rawValue + 1])
        try journal.close()
        #expect(try Self.recordedMigrations(at: path) == Self.allIdentifiers)
    }

    @Test("a first-version journal gets every later migration, recorded in grdb_migrations as GRDB recorded them")
    func migratesTheFirstVersion() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let database = try SQLiteConnection(path: path)
        try database.transaction { db in
            try db.execute(Self.firstVersionSchema)
            try db.prepare("INSERT INTO upload_job (spec, state, created_at, updated_at) VALUES (?, 'queued', 0, 0)")
                .execute([.text(try Self.json(Self.spec("old.bin")))])
        }
        try database.close()

        let journal = try UploadJournal(path: path)
        var job = try #require(try journal.loadRestorableJobs().first)
        job.state = .failed
        job.lastError = .transferFailed(reason: .stoppedAfterSending)
        try journal.apply([.update(job, includingSpec: false)])
        #expect(try journal.job(job.id)?.lastError == job.lastError)
        try journal.close()
        #expect(try Self.recordedMigrations(at: path) == Self.allIdentifiers)
        // Opening again finds nothing to do.
        try UploadJournal(path: path).close()
        #expect(try Self.recordedMigrations(at: path) == Self.allIdentifiers)
    }

    @Test("a new journal records every migration in grdb_migrations, so an older Ferry's GRDB would open it too")
    func newJournalRecordsMigrations() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        try UploadJournal(path: path).close()
        #expect(try Self.recordedMigrations(at: path) == Self.allIdentifiers)
    }
}
