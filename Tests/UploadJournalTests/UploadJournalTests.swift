import FileSystem
import Foundation
import Multipart
import SQLiteDatabase
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadJournal

@Suite("UploadJournal")
struct UploadJournalTests {
    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    static func spec(_ name: String) -> UploadJobSpec {
        UploadJobSpec(
            url: "https://example.test/up",
            headers: [HeaderField(name: "Authorization", value: "Bearer secret")],
            textFields: [FormTextField(name: "album", value: "holidays")],
            extraFileParts: [ExtraFilePart(name: "meta", path: "/tmp/meta.json", contentType: "application/json")],
            files: [QueuedFile(path: "/data/\(name)", size: 1234, modificationTimeNanoseconds: 1_700_000_000_123_456_789)]
        )
    }

    @Test("the directory is created 0700; the database, -wal and -shm files are 0600")
    func permissions() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("state/ferry/journal.sqlite")
        let journal = try UploadJournal(path: path)
        _ = try journal.insert([Self.spec("a")])
        #expect(Self.mode(directory.path("state")) == 0o700)
        #expect(Self.mode(directory.path("state/ferry")) == 0o700)
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(path + "-wal") == 0o600)
        #expect(Self.mode(path + "-shm") == 0o600)
    }

    @Test("the default location follows XDG_STATE_HOME, else ~/.local/state")
    func defaultPath() {
        #expect(UploadJournal.defaultPath(environment: ["XDG_STATE_HOME": "/var/st", "HOME": "/home/u"]) == "/var/st/ferry/journal.sqlite")
        #expect(UploadJournal.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/state/ferry/journal.sqlite")
        #expect(UploadJournal.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/state/ferry/journal.sqlite")
    }

    @Test("openDefault makes an existing ferry directory private")
    func openDefault() throws {
        let directory = TemporaryDirectory()
        let ferry = directory.path("ferry")
        try FileManager.default.createDirectory(atPath: ferry, withIntermediateDirectories: true)
        chmod(ferry, 0o755)
        let journal = try UploadJournal.openDefault(environment: ["XDG_STATE_HOME": directory.path])
        #expect(journal.path == directory.path("ferry/journal.sqlite"))
        #expect(Self.mode(ferry) == 0o700)
    }

    @Test("a journal that cannot be created says where and why")
    func openFailure() {
        let directory = TemporaryDirectory()
        let blocker = directory.file("blocker")
        #expect(throws: UploadError.self) { try UploadJournal(path: blocker + "/journal.sqlite") }
        do {
            _ = try UploadJournal(path: blocker + "/journal.sqlite")
        } catch {
            guard case .journalFailed(.openFailed(let path, _)) = error else { Issue.record("\(error)"); return }
            #expect(path == blocker + "/journal.sqlite")
        }
    }

    @Test("IDs increase and are never reused; specs round-trip with their file stamps")
    func insert() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("j.sqlite"))
        let first = try journal.insert([Self.spec("a"), Self.spec("b"), Self.spec("c")])
        #expect(first.map(\.id.rawValue) == [1, 2, 3])
        try journal.apply([.delete([first[2].id])])
        let second = try journal.insert([Self.spec("d")])
        #expect(second.map(\.id.rawValue) == [4])
        let all = try journal.allJobs()
        #expect(all.map(\.id.rawValue) == [1, 2, 4])
        #expect(all[0].spec == Self.spec("a"))
        #expect(all[0].state == .queued)
        #expect(all[2].spec.files[0].modificationTimeNanoseconds == 1_700_000_000_123_456_789)
    }

    @Test("a state change updates one row: state, attempts, last error, response; the spec only when asked")
    func update() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("j.sqlite"))
        var job = try journal.insert([Self.spec("a")])[0]
        job.state = .failed
        job.attempts = 4
        job.automaticRetries = 3
        job.lastError = .serverRejected(status: 503, retryAfter: nil)
        job.progress.totalBytes = 1500
        job.response = UploadResponse(status: 503, headers: [HeaderField(name: "Retry-After", value: "9"), HeaderField(name: "X-Note", value: "a: b"), HeaderField(name: "X-Empty", value: "")], body: Array("busy".utf8))
        job.spec.files = [QueuedFile(path: "/data/a", size: 1, modificationTimeNanoseconds: 2)]
        try journal.apply([.update(job, includingSpec: false)])
        var loaded = try journal.allJobs()[0]
        #expect(loaded.state == .failed)
        #expect(loaded.attempts == 4)
        #expect(loaded.automaticRetries == 3)
        #expect(loaded.lastError == .serverRejected(status: 503, retryAfter: nil))
        #expect(loaded.progress.totalBytes == 1500)
        #expect(loaded.response == job.response)
        #expect(loaded.spec == Self.spec("a"))
        try journal.apply([.update(job, includingSpec: true)])
        loaded = try journal.allJobs()[0]
        #expect(loaded.spec.files == job.spec.files)
    }

    @Test("ferry send and the interface each restore their own jobs; each can count the other's unfinished ones")
    func clientsKeepTheirOwnResumeSets() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let send = try UploadJournal(path: path, client: .send)
        let sent = try send.insert([Self.spec("cli-1"), Self.spec("cli-2")])
        let interface = try UploadJournal(path: path, client: .interface)
        let picked = try interface.insert([Self.spec("ui-1")])
        #expect(try send.loadRestorableJobs().map(\.id) == sent.map(\.id))
        #expect(try interface.loadRestorableJobs().map(\.id) == picked.map(\.id))
        #expect(try interface.unfinishedJobCount(of: .send) == 2)
        #expect(try send.unfinishedJobCount(of: .interface) == 1)
    }

    @Test("restorable jobs are the queued, interrupted and failed ones; a success deletes its row, other finished rows can be pruned")
    func restorable() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("j.sqlite"))
        var jobs = try journal.insert(["q", "u", "s", "f", "c"].map(Self.spec))
        let states: [UploadJobState] = [.queued, .uploading, .succeeded, .failed, .cancelled]
        for index in jobs.indices { jobs[index].state = states[index] }
        try journal.apply(jobs.map { .update($0, includingSpec: false) })
        #expect(try journal.allJobs().map(\.state) == [.queued, .uploading, .failed, .cancelled], "the success's row is gone")
        #expect(try journal.loadRestorableJobs().map(\.state) == [.queued, .uploading, .failed])
        #expect(try journal.deleteFinishedJobs() == 1)
        #expect(try journal.allJobs().count == 3)
    }

    @Test("the interface keeps its cancelled jobs at a restore; ferry send's restore deletes only its own")
    func cancelledJobsAreKeptPerClient() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let interface = try UploadJournal(path: path, client: .interface)
        var mine = try interface.insert([Self.spec("ui-cancelled"), Self.spec("ui-done")])
        mine[0].state = .cancelled
        mine[1].state = .succeeded
        try interface.apply(mine.map { .update($0, includingSpec: false) })
        let send = try UploadJournal(path: path, client: .send)
        var theirs = try send.insert([Self.spec("cli-cancelled")])
        theirs[0].state = .cancelled
        try send.apply(theirs.map { .update($0, includingSpec: false) })
        #expect(try interface.loadRestorableJobs(includingCancelled: true).map(\.id) == [mine[0].id])
        #expect(try interface.deleteFinishedJobs(keepingCancelled: true) == 1, "the succeeded row only (the interface keeps it until then)")
        #expect(try send.deleteFinishedJobs() == 1, "ferry send's own cancelled row")
        #expect(try interface.allJobs().map(\.id) == [mine[0].id], "the interface's cancelled row stays for it to show")
    }

    @Test("a second connection sees everything an un-closed writer committed (a killed process)")
    func reopenAfterUnclosedWriter() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let writer = try UploadJournal(path: path)
        var jobs = try writer.insert((0..<50).map { Self.spec("f\($0)") })
        jobs[0].state = .uploading
        jobs[0].attempts = 1
        try writer.apply([.update(jobs[0], includingSpec: false)])
        // `writer` is never closed and its WAL never checkpointed.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let reader = try UploadJournal(path: path)
        let restored = try reader.loadRestorableJobs()
        #expect(restored.count == 50)
        #expect(restored[0].state == .uploading)
        #expect(restored[0].attempts == 1)
        withExtendedLifetime(writer) {}
    }

    @Test("closing leaves the WAL for the next run, which sees every job; a journal deleted alone starts empty")
    func walLeftAtClose() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let writer = try UploadJournal(path: path)
        _ = try writer.insert((0..<3).map { Self.spec("f\($0)") })
        try writer.close()
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect((wal ?? 0) > 0, "closing does not checkpoint the WAL into the database")
        let reopened = try UploadJournal(path: path)
        #expect(try reopened.allJobs().count == 3)
        try reopened.close()
        // Someone starting afresh deletes journal.sqlite alone: the WAL beside it is not replayed.
        try FileManager.default.removeItem(atPath: path)
        let fresh = try UploadJournal(path: path)
        #expect(try fresh.allJobs().isEmpty)
        _ = try fresh.insert([Self.spec("g")])
        try fresh.close()
        #expect(try UploadJournal(path: path).allJobs().map(\.spec.files[0].path) == ["/data/g"])
    }

    @Test("the lock file beside the journal is private; a takeover in the owning process is not refused")
    func lockFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let journal = try UploadJournal(path: path)
        _ = try journal.insert([Self.spec("a")])
        #expect(Self.mode(path + ".lock") == 0o600)
        let second = try UploadJournal(path: path)
        #expect(try second.takeOverRestorableJobs().count == 1)
        #expect(try journal.takeOverRestorableJobs().count == 1)
    }

    @Test("a path that is not UTF-8 survives the journal: the restored job still names the file")
    func nonUTF8PathRoundTrips() throws {
        let directory = TemporaryDirectory()
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        let path = directory.file(rawName: name, bytes: 7)
        let queued = QueuedFile.capture(path: path)
        #expect(queued.size == 7)
        let journal = try UploadJournal(path: directory.path("j.sqlite"))
        _ = try journal.insert([UploadJobSpec(url: "http://h/u", files: [queued])])
        try journal.close()

        let restored = try UploadJournal(path: directory.path("j.sqlite")).loadRestorableJobs()
        let file = try #require(restored.first?.spec.files.first)
        #expect(file.path == path)
        #expect(Array(FileSystemName.bytes(of: file.path).suffix(name.count)) == name)
        #expect(!file.hasChangedSinceQueued())
        #expect(file.recaptured() == queued)
    }

    @Test("a failed job's error comes back typed: still retryable or not, still a changed file")
    func typedErrorsSurviveARestart() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let journal = try UploadJournal(path: path)
        let errors: [UploadError] = [
            .fileChangedSinceQueued(path: "/data/a"),
            .serverRejected(status: 503, retryAfter: .milliseconds(1500)),
            .transferFailed(reason: .stoppedAfterSending),
            .multipartFailed(.fileChanged(path: "/data/d", reason: .grew(expected: 1, actual: 2))),
        ]
        var failed = try journal.insert(errors.map { _ in Self.spec("a") })
        for index in failed.indices {
            failed[index].state = .failed
            failed[index].lastError = errors[index]
        }
        try journal.apply(failed.map { .update($0, includingSpec: false) })
        try journal.close()

        let restored = try UploadJournal(path: path).loadRestorableJobs()
        #expect(restored.map(\.lastError) == errors)
        #expect(restored.map { $0.lastError?.isRetryable } == [false, true, false, false])
        #expect(restored.map { $0.lastError?.isFileChanged } == [true, false, false, true])
        #expect(restored[1].lastError?.retryAfter == .milliseconds(1500))
    }

    @Test("an error stored as text only (an older journal) or in a later shape comes back as .recorded")
    func untypedErrorsComeBackRecorded() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        let journal = try UploadJournal(path: path)
        let jobs = try journal.insert([Self.spec("a"), Self.spec("b")])
        try journal.close()
        let database = try SQLiteConnection(path: path)
        try database.transaction { db in
            try db.prepare("UPDATE upload_job SET state = 'failed', last_error = 'old text' WHERE id = ?")
                .execute([.integer(jobs[0].id.rawValue)])
            try db.prepare("""
                UPDATE upload_job SET state = 'failed', last_error = 'newer text',
                last_error_reason = '{"version":2,"error":{"somethingNew":{}}}' WHERE id = ?
                """).execute([.integer(jobs[1].id.rawValue)])
        }
        try database.close()

        let restored = try UploadJournal(path: path).loadRestorableJobs()
        #expect(restored.map(\.lastError) == [.recorded(description: "old text"), .recorded(description: "newer text")])
    }

    @Test("the stored error's JSON shape is versioned and names the case and its labels")
    func journaledErrorShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(JournaledError(.transferFailed(reason: .stoppedAfterSending)))
        #expect(String(decoding: data, as: UTF8.self) == #"{"error":{"transferFailed":{"reason":{"stoppedAfterSending":{}}}},"version":1}"#)
        let rejected = #"{"version":1,"error":{"serverRejected":{"status":429}}}"#
        let decoded = try JSONDecoder().decode(JournaledError.self, from: Data(rejected.utf8))
        #expect(decoded.error == .serverRejected(status: 429, retryAfter: nil))
    }
}
