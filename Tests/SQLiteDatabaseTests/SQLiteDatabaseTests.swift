import Dispatch
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// The journal's SQLite layer on real database files.
@Suite("SQLite layer")
struct SQLiteDatabaseTests {
    struct Stop: Error {}

    static func open(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: directory.path("db.sqlite"))
        try connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY NOT NULL, v BLOB NOT NULL)")
        return connection
    }

    static func count(_ connection: SQLiteConnection) throws -> Int64? {
        try connection.cachedStatement("SELECT COUNT(*) FROM t").rows { $0.int64(0) }.first ?? nil
    }

    @Test("an error carries SQLite's extended code, its message and the SQL, in GRDB's words")
    func errorCarriesCodeAndMessage() throws {
        let directory = TemporaryDirectory()
        let connection = try Self.open(directory)
        let insert = try connection.cachedStatement("INSERT INTO t (k, v) VALUES (?, ?)")
        try insert.execute([.text("a"), .blob(Data([1]))])
        let error = try #require(throws: SQLiteError.self) { try insert.execute([.text("a"), .blob(Data([2]))]) }
        #expect(error.extendedCode == 1555) // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(error.primaryCode == 19) // SQLITE_CONSTRAINT
        #expect(error.description == "SQLite error 19: UNIQUE constraint failed: t.k - while executing `INSERT INTO t (k, v) VALUES (?, ?)`")
        // The statement is usable again.
        try insert.execute([.text("b"), .blob(Data([2]))])
        #expect(try Self.count(connection) == 2)
    }

    @Test("a transaction commits what its body did, and rolls all of it back when the body throws")
    func transactions() throws {
        let directory = TemporaryDirectory()
        let connection = try Self.open(directory)
        try connection.transaction { db in
            try db.prepare("INSERT INTO t (k, v) VALUES ('a', x'01')").execute()
        }
        #expect(throws: Stop.self) {
            try connection.transaction { db in
                try db.prepare("INSERT INTO t (k, v) VALUES ('b', x'02')").execute()
                throw Stop()
            }
        }
        #expect(try Self.count(connection) == 1)
        #expect(throws: SQLiteError.self) {
            try connection.transaction { db in
                try db.prepare("INSERT INTO t (k, v) VALUES ('c', x'03')").execute()
                try db.prepare("INSERT INTO t (k, v) VALUES ('a', x'04')").execute()
            }
        }
        #expect(try connection.prepare("SELECT k FROM t").rows { $0.text(0) } == ["a"])
    }

    @Test("values round-trip in their storage classes; an empty blob stays a blob, not NULL")
    func valuesRoundTrip() throws {
        let directory = TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.path("db.sqlite"))
        try connection.execute("CREATE TABLE v (i INTEGER, r REAL, s TEXT, b BLOB NOT NULL, n TEXT)")
        try connection.prepare("INSERT INTO v VALUES (?, ?, ?, ?, ?)")
            .execute([SQLiteValue(Int64.max), SQLiteValue(1.5), SQLiteValue("é\u{0}x"), SQLiteValue(Data()), SQLiteValue(nil as String?)])
        let row = try connection.prepare("SELECT i, r, s, b, n, typeof(b) FROM v").rows { row in
            [row.int64(0).map(String.init), row.double(1).map { "\($0)" }, row.text(2), row.data(3).map { "\($0.count) bytes" },
             row.text(4), row.text(5)]
        }
        #expect(row == [["\(Int64.max)", "1.5", "é\u{0}x", "0 bytes", nil, "blob"]])
    }

    @Test("a cached statement that has been read does not keep a reader open: the WAL checkpoints fully")
    func readsEndTheirTransaction() throws {
        let directory = TemporaryDirectory()
        let reader = try Self.open(directory)
        #expect(try reader.prepare("PRAGMA journal_mode = WAL").rows { $0.text(0) } == ["wal"])
        try reader.prepare("INSERT INTO t (k, v) VALUES ('a', x'01')").execute()
        #expect(try Self.count(reader) == 1)
        let writer = try SQLiteConnection(path: directory.path("db.sqlite"))
        try writer.prepare("INSERT INTO t (k, v) VALUES ('b', x'02')").execute()
        // (busy, log frames, checkpointed frames): busy is 0 only when no reader holds the WAL.
        let checkpoint = try writer.prepare("PRAGMA wal_checkpoint(TRUNCATE)").rows { $0.int64(0) }
        #expect(checkpoint == [0])
        #expect(try Self.count(reader) == 2)
    }

    @Test("a closed connection fails with SQLITE_MISUSE and says it is closed")
    func closedConnection() throws {
        let directory = TemporaryDirectory()
        let queue = try SQLiteQueue(path: directory.path("db.sqlite"), label: "ferry.tests.sqlite")
        try queue.close()
        let error = try #require(throws: SQLiteError.self) { try queue.write { try $0.execute("CREATE TABLE x (a)") } }
        #expect(error.extendedCode == 21)
        #expect(error.description.contains("is closed"))
    }

    @Test("a queue runs uses from many threads one at a time")
    func queueSerialises() throws {
        let directory = TemporaryDirectory()
        let queue = try SQLiteQueue(path: directory.path("db.sqlite"), label: "ferry.tests.sqlite")
        try queue.perform { try $0.execute("CREATE TABLE c (n INTEGER NOT NULL); INSERT INTO c VALUES (0)") }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                try? queue.write { db in
                    let n = try db.cachedStatement("SELECT n FROM c").rows { $0.int64(0) ?? 0 }[0]
                    try db.cachedStatement("UPDATE c SET n = ?").execute([.integer(n + 1)])
                }
            }
        }
        #expect(try queue.perform { try $0.prepare("SELECT n FROM c").rows { $0.int64(0) } } == [400])
    }
}
