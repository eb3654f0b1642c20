import SQLiteDatabase

/// The journal's schema as the migrations that build it, in order, and their application.
///
/// Applied migrations are recorded by identifier in `grdb_migrations`, the table GRDB's
/// `DatabaseMigrator` kept while the journal was written through GRDB (up to version 7.10), so
/// the journals those versions left open and migrate as before. Each migration runs in its own
/// write transaction with its record.
enum JournalSchema {
    /// The migrations, oldest first: an identifier and the SQL that applies it.
    static let migrations: [(identifier: String, sql: String)] = [
        ("v1", """
            CREATE TABLE upload_job (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                spec TEXT NOT NULL,
                state TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                automatic_retries INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                total_bytes INTEGER,
                response_status INTEGER,
                response_headers TEXT,
                response_body BLOB,
                response_truncated INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            );
            CREATE TABLE form_state (
                key TEXT PRIMARY KEY NOT NULL,
                value BLOB NOT NULL,
                updated_at REAL NOT NULL
            );
            """),
        ("v2-attempt-history", "ALTER TABLE upload_job ADD COLUMN attempt_history TEXT"),
        ("v3-client", "ALTER TABLE upload_job ADD COLUMN client TEXT"),
        ("v4-typed-error", "ALTER TABLE upload_job ADD COLUMN last_error_reason TEXT"),
        ("v5-tus-checkpoint", "ALTER TABLE upload_job ADD COLUMN tus_checkpoint TEXT"),
        ("v6-resumption", "ALTER TABLE upload_job ADD COLUMN resumption TEXT"),
    ]

    /// Applies the migrations `grdb_migrations` does not list, in order. A journal that is up to
    /// date is only read (no write lock is taken); a migration another process applied meanwhile
    /// is skipped.
    ///
    /// - Parameter connection: The journal's connection.
    /// - Throws: `SQLiteError`; the migrations before the failing one stay applied.
    static func migrate(_ connection: SQLiteConnection) throws {
        let applied = try appliedIdentifiers(connection)
        for migration in migrations where !applied.contains(migration.identifier) {
            try connection.transaction { connection in
                try connection.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                guard try !appliedIdentifiers(connection).contains(migration.identifier) else { return }
                try connection.execute(migration.sql)
                try connection.prepare("INSERT INTO grdb_migrations (identifier) VALUES (?)").execute([.text(migration.identifier)])
            }
        }
    }

    /// The identifiers `grdb_migrations` lists; none when there is no such table (a new file).
    private static func appliedIdentifiers(_ connection: SQLiteConnection) throws -> Set<String> {
        let tables = try connection.prepare("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'")
        let exists = try tables.rows { $0.int64(0) == 1 }.first ?? false
        guard exists else { return [] }
        return Set(try connection.prepare("SELECT identifier FROM grdb_migrations").rows { $0.text(0) ?? "" })
    }
}
