import Foundation
import Glibc
import SQLiteDatabase
import TestSupport
import Testing
@testable import UploadJournal

/// `ferry send` against `ferry serve` (both the built binary, as an ordinary user), which honours
/// `Idempotency-Key` and speaks resumable uploads: what a flaky server and a killed client leave
/// is settled by the server's word — a key's replay, a resumable upload's offset — not handed to
/// the user as "may have arrived". The server saves a second upload of a name under `NAME-1`, so
/// its folder holding exactly the files' names says each was stored once.
@Suite("Settled by the server's word (the built binary)", .serialized, .timeLimit(.minutes(6)))
struct SettledUploadsTests {
    /// `count` files of `bytes` each, named `PREFIX<n>.bin`, and their names.
    /// How many of a journal's rows hold a resumable upload's URL, read while the run that writes
    /// it goes on (0 while there is no journal yet).
    static func rowsNamingAnUploadURL(_ path: String) -> Int {
        guard FileManager.default.fileExists(atPath: path), let database = try? SQLiteConnection(path: path) else { return 0 }
        defer { try? database.close() }
        let count = try? database.prepare("SELECT count(*) FROM upload_job WHERE resumption IS NOT NULL")
            .rows { Int($0.int64(0) ?? 0) }.first
        return count ?? 0
    }

    static func files(_ prefix: String, count: Int, bytes: Int, in dir: TemporaryDirectory) -> (paths: [String], names: [String]) {
        let names = (0..<count).map { "\(prefix)\($0).bin" }
        return (names.map { dir.file($0, bytes: bytes) }, names.sorted())
    }

    @Test("chaos: 300 files, a fifth of the connections cut mid-body and a fifth answered 500: every file stored once, exit 0, and none waits long")
    func chaos() async throws {
        let dir = TemporaryDirectory()
        let (paths, names) = Self.files("c", count: 300, bytes: 50_000, in: dir)
        let server = try await SpawnedReceiver.start(["--drop-rate", "0.2", "--fail-rate", "0.2"])
        defer { server.terminate() }
        // --retry 20: with these rates a file fails an attempt in 36 % of them, so 3 retries
        // (the default) leave 1.7 % of files failed by the faults alone (0.36⁴); 20 leave one
        // in a million runs (300 × 0.36²¹). --retry-delay keeps the tail of a long streak short.
        let process = try FerryProcess(["send", "--json", "--retry", "20", "--retry-delay", "0.2",
                                        "--url", server.uploadURL] + paths, stateHome: dir.path("state"))
        let status = try await process.exitStatus(within: .seconds(300))
        let events = process.jsonEvents
        let failed = events.filter { $0["event"] as? String == "failed" }
        #expect(status == 0, "\(failed.prefix(3)) \(process.errorText.suffix(500))")
        #expect(failed.isEmpty)
        #expect(try server.savedNames() == names, "each file stored once, under its own name")
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary" && summary["succeeded"] as? Int == names.count, "\(summary)")
        let waits = events.filter { $0["event"] as? String == "retrying" }.compactMap { $0["retryIn"] as? Double }
        #expect(!waits.isEmpty && waits.allSatisfy { $0 <= 0.2 }, "--retry-delay 0.2 bounds every wait: \(waits.max() ?? -1)")
    }

    @Test("20 rounds of kill -9, then --resume: no job left 'may have arrived', every file stored exactly once")
    func killRounds() async throws {
        let dir = TemporaryDirectory()
        let (paths, names) = Self.files("k", count: 300, bytes: 2_000, in: dir)
        let state = dir.path("state")
        // A delay before each answer keeps bodies sent and unanswered when the kill comes.
        let server = try await SpawnedReceiver.start(["--delay", "30"])
        defer { server.terminate() }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let arguments = round == 0
                ? ["send", "--json", "--concurrency", "8", "--url", server.uploadURL] + paths
                : ["send", "--json", "--concurrency", "8", "--resume"]
            let process = try FerryProcess(arguments, stateHome: state)
            // The first round runs until an answer has come (the server's word on keys is then
            // in the journal); each round is killed 50 to 300 ms after its start.
            if round == 0 {
                #expect(try await process.wait(upTo: .seconds(30)) {
                    $0.jsonEvents.contains { $0["event"] as? String == "succeeded" }
                })
            }
            try await Task.sleep(for: .milliseconds(50 + Int(generator.next() % 250)))
            process.signal(SIGKILL)
            _ = try await process.exitStatus(within: .seconds(10))
        }
        let last = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        let status = try await last.exitStatus(within: .seconds(120))
        #expect(status == 0, "\(last.errorText.suffix(500))")
        let left = try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs()
        #expect(left.filter(\.mayHaveArrived).isEmpty, "\(left.filter(\.mayHaveArrived).count) may have arrived")
        #expect(left.isEmpty, "\(left.map { "\($0.state) \($0.lastError?.description ?? "")" }.prefix(3))")
        #expect(try server.savedNames() == names, "each file stored exactly once")
    }

    @Test("files over 64 KiB go as resumable uploads by default: one cut mid-body goes on from ferry serve's offset, stored once")
    func resumedByDefault() async throws {
        let dir = TemporaryDirectory()
        let (paths, names) = Self.files("big", count: 12, bytes: 1_500_000, in: dir)
        let server = try await SpawnedReceiver.start(["--drop-rate", "0.5", "--seed", "5"])
        defer { server.terminate() }
        let process = try FerryProcess(["send", "--json", "--retry", "10", "--url", server.uploadURL] + paths,
                                       stateHome: dir.path("state"))
        #expect(try await process.exitStatus(within: .seconds(120)) == 0, "\(process.errorText.suffix(500))")
        let succeeded = process.jsonEvents.filter { $0["event"] as? String == "succeeded" }
        #expect(succeeded.count == names.count)
        let resumed = succeeded.filter { ($0["resumedAt"] as? [Any])?.isEmpty == false }
        #expect(!resumed.isEmpty, "some cut upload went on from the server's offset: \(succeeded.prefix(2))")
        #expect(try server.savedNames() == names)
        let uploads = try #require(server.uploads)
        for path in paths {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(FileManager.default.contentsEqual(atPath: uploads.path + "/" + name, andPath: path), "\(name) stored byte for byte")
        }
    }

    @Test("killed after large bodies went out, before their answers: --resume asks each upload's URL, which holds it all; nothing is sent again")
    func answerLostSettledByHead() async throws {
        let dir = TemporaryDirectory()
        let (paths, names) = Self.files("held", count: 3, bytes: 300_000, in: dir)
        let state = dir.path("state")
        // Answers held back 30 s: the bodies are stored, their answers not yet sent.
        let server = try await SpawnedReceiver.start(["--delay", "30000"])
        defer { server.terminate() }
        let killed = try FerryProcess(["send", "--json", "--no-idempotency-key", "--url", server.uploadURL] + paths,
                                      stateHome: state)
        // The kill comes once the server holds every body and the journal every upload's URL
        // (written through as its 104 arrives, a millisecond or so: a kill inside that leaves the
        // job "may have arrived", as nothing can ask).
        #expect(try await killed.wait(upTo: .seconds(30)) { _ in
            ((try? server.savedNames()) ?? []) == names && Self.rowsNamingAnUploadURL(state + "/ferry/journal.sqlite") == names.count
        })
        killed.signal(SIGKILL)
        _ = try await killed.exitStatus(within: .seconds(10))
        let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        #expect(try await resumed.exitStatus(within: .seconds(60)) == 0, "\(resumed.errorText.suffix(500))")
        let succeeded = resumed.jsonEvents.filter { $0["event"] as? String == "succeeded" }
        #expect(succeeded.count == 3, "\(resumed.outputLines.suffix(5))")
        #expect(succeeded.allSatisfy { $0["answerLost"] as? Bool == true }, "\(succeeded)")
        #expect(try server.savedNames() == names, "nothing was sent again")
        #expect(try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs().isEmpty)
    }

    @Test("Ctrl-C after bodies went out, before their answers: where the server can settle them they wait for --resume, not 'may have arrived'",
          arguments: [(["--idempotent"], 2_000), (["--no-idempotency-key"], 300_000)])
    func interruptedBeforeAnswers(options: [String], bytes: Int) async throws {
        let dir = TemporaryDirectory()
        let (paths, names) = Self.files("int", count: 3, bytes: bytes, in: dir)
        let state = dir.path("state")
        let server = try await SpawnedReceiver.start(["--delay", "30000"])
        defer { server.terminate() }
        let stopped = try FerryProcess(["send", "--json"] + options + ["--url", server.uploadURL] + paths, stateHome: state)
        #expect(try await stopped.wait(upTo: .seconds(30)) { _ in ((try? server.savedNames()) ?? []) == names })
        stopped.signal(SIGINT)
        #expect(try await stopped.exitStatus(within: .seconds(10)) == 130)
        #expect(!stopped.jsonEvents.contains { $0["event"] as? String == "failed" }, "\(stopped.outputLines.suffix(4))")
        let kept = try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs()
        #expect(kept.count == 3 && kept.allSatisfy { $0.state == .queued && !$0.mayHaveArrived })
        let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        #expect(try await resumed.exitStatus(within: .seconds(60)) == 0, "\(resumed.errorText.suffix(500))")
        #expect(resumed.jsonEvents.filter { $0["event"] as? String == "succeeded" }.count == 3, "\(resumed.outputLines.suffix(5))")
        #expect(try server.savedNames() == names, "each stored once")
    }
}
