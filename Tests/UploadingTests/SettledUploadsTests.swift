import Foundation
import Glibc
import Receiver
import TestSupport
import Testing
@testable import Uploading

/// `ferry send` (the built binary, as an ordinary user) against `ferry serve`, which honours
/// `Idempotency-Key` and speaks resumable uploads: what a flaky server and a killed client leave
/// is settled by the server's word — a key's replay, a resumable upload's offset — not handed to
/// the user as "may have arrived".
@Suite("Settled by the server's word (the built binary)", .serialized, .timeLimit(.minutes(6)))
struct SettledUploadsTests {
    /// How many uploads of each file the server stored, by file name.
    static func storedCounts(_ server: ReceiverServer) -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in server.receivedUploads {
            for file in record.files { counts[file.filename, default: 0] += 1 }
        }
        return counts
    }

    @Test("chaos: 300 files, a fifth of the connections cut mid-body and a fifth answered 500: every file stored once, exit 0, and none waits long")
    func chaos() async throws {
        let dir = TemporaryDirectory()
        let count = 300
        let files = (0..<count).map { dir.file("c\($0).bin", bytes: 50_000) }
        let plan = FaultPlan(failRate: 0.2, dropRate: 0.2)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: plan)) { server in
            // --retry 20: with these rates a file fails an attempt in 36 % of them, so 3 retries
            // (the default) leave 1.7 % of files failed by the faults alone (0.36⁴); 20 leave one
            // in a million runs (300 × 0.36²¹). --retry-delay keeps the tail of a long streak short.
            let process = try FerryProcess(["send", "--json", "--retry", "20", "--retry-delay", "0.2",
                                            "--url", server.baseURL + "/upload"] + files, stateHome: dir.path("state"))
            let status = try await process.exitStatus(within: .seconds(300))
            let events = process.jsonEvents
            let failed = events.filter { $0["event"] as? String == "failed" }
            #expect(status == 0, "\(failed.prefix(3)) \(process.errorText.suffix(500))")
            #expect(failed.isEmpty)
            let counts = Self.storedCounts(server)
            #expect(counts.count == count, "\(counts.count) of \(count) files stored")
            #expect(counts.values.allSatisfy { $0 == 1 }, "stored twice: \(counts.filter { $0.value > 1 })")
            let summary = try #require(events.last)
            #expect(summary["event"] as? String == "summary" && summary["succeeded"] as? Int == count, "\(summary)")
            let waits = events.filter { $0["event"] as? String == "retrying" }.compactMap { $0["retryIn"] as? Double }
            #expect(!waits.isEmpty && waits.allSatisfy { $0 <= 0.2 }, "--retry-delay 0.2 bounds every wait: \(waits.max() ?? -1)")
        }
    }

    @Test("20 rounds of kill -9, then --resume: no job left 'may have arrived', every file stored exactly once")
    func killRounds() async throws {
        let dir = TemporaryDirectory()
        let count = 300
        let files = (0..<count).map { dir.file("k\($0).bin", bytes: 2_000) }
        let state = dir.path("state")
        // A delay before each answer keeps bodies sent and unanswered when the kill comes.
        let plan = FaultPlan(delayMilliseconds: 30)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: plan)) { server in
            var generator = SplitMix64(seed: 43)
            for round in 0..<20 {
                let arguments = round == 0
                    ? ["send", "--json", "--concurrency", "8", "--url", server.baseURL + "/upload"] + files
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
            let counts = Self.storedCounts(server)
            #expect(counts.count == count, "\(counts.count) of \(count) files stored")
            #expect(counts.values.allSatisfy { $0 == 1 }, "stored twice: \(counts.filter { $0.value > 1 })")
        }
    }

    @Test("files over 64 KiB go as resumable uploads by default: one cut mid-body goes on from ferry serve's offset, stored once")
    func resumedByDefault() async throws {
        let dir = TemporaryDirectory()
        let count = 12
        let files = (0..<count).map { dir.file("big\($0).bin", bytes: 1_500_000) }
        let plan = FaultPlan(dropRate: 0.5, seed: 5)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: plan)) { server in
            let process = try FerryProcess(["send", "--json", "--retry", "10", "--url", server.baseURL + "/upload"] + files,
                                           stateHome: dir.path("state"))
            #expect(try await process.exitStatus(within: .seconds(120)) == 0, "\(process.errorText.suffix(500))")
            let succeeded = process.jsonEvents.filter { $0["event"] as? String == "succeeded" }
            #expect(succeeded.count == count)
            let resumed = succeeded.filter { ($0["resumedAt"] as? [Any])?.isEmpty == false }
            #expect(!resumed.isEmpty, "some cut upload went on from the server's offset: \(succeeded.prefix(2))")
            let counts = Self.storedCounts(server)
            #expect(counts.count == count && counts.values.allSatisfy { $0 == 1 }, "\(counts)")
            for (index, path) in files.enumerated() {
                let stored = dir.path("r") + "/big\(index).bin"
                #expect(FileManager.default.contentsEqual(atPath: stored, andPath: path), "big\(index).bin stored byte for byte")
            }
        }
    }

    @Test("killed after large bodies went out, before their answers: --resume asks each upload's URL, which holds it all; nothing is sent again")
    func answerLostSettledByHead() async throws {
        let dir = TemporaryDirectory()
        let files = (0..<3).map { dir.file("held\($0).bin", bytes: 300_000) }
        let state = dir.path("state")
        // Answers held back 30 s: the bodies are stored, their answers not yet sent.
        let plan = FaultPlan(delayMilliseconds: 30_000)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: plan)) { server in
            let killed = try FerryProcess(["send", "--json", "--no-idempotency-key", "--url", server.baseURL + "/upload"] + files,
                                          stateHome: state)
            #expect(try await killed.wait(upTo: .seconds(30)) { _ in server.receivedUploads.count == 3 })
            killed.signal(SIGKILL)
            _ = try await killed.exitStatus(within: .seconds(10))
            let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
            #expect(try await resumed.exitStatus(within: .seconds(60)) == 0, "\(resumed.errorText.suffix(500))")
            let succeeded = resumed.jsonEvents.filter { $0["event"] as? String == "succeeded" }
            #expect(succeeded.count == 3, "\(resumed.outputLines.suffix(5))")
            #expect(succeeded.allSatisfy { $0["answerLost"] as? Bool == true }, "\(succeeded)")
            #expect(server.receivedUploads.count == 3, "nothing was sent again")
            #expect(try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs().isEmpty)
        }
    }
}
