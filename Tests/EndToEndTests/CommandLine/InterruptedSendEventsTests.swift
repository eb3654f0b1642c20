import Foundation
import Glibc
import Receiver
import TestSupport
import Testing
@testable import UploadJournal

/// A `ferry send --json` that a signal ends early still tells every outcome it had: each job the
/// server answered has its `succeeded` line, and the last line is a `summary` saying the run was
/// interrupted and how many jobs it left for `--resume`.
@Suite("Every event before an interrupted exit (the built binary)", .serialized, .timeLimit(.minutes(3)))
struct InterruptedSendEventsTests {
    @Test("a signal mid-run: a succeeded line for every job gone from the journal, then an interrupted summary",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func everyOutcomeThenSummary(signal: Int32) async throws {
        let dir = TemporaryDirectory()
        let count = 120
        let files = (0..<count).map { dir.file("f\($0).txt", bytes: 100) }
        let state = dir.path("state")
        let plan = FaultPlan(delayMilliseconds: 40)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: plan)) { server in
            let process = try FerryProcess(["send", "--json", "--concurrency", "4", "--url", server.baseURL + "/upload"] + files,
                                           stateHome: state)
            let going = try await process.wait(upTo: .seconds(30)) {
                $0.jsonEvents.filter { $0["event"] as? String == "succeeded" }.count >= 5
            }
            #expect(going)
            process.signal(signal)
            #expect(try await process.exitStatus(within: .seconds(10)) == 130, "\(process.errorText)")
            let events = process.jsonEvents
            let succeeded = Set(events.filter { $0["event"] as? String == "succeeded" }.compactMap { $0["path"] as? String })
            let summary = try #require(events.last, "\(process.outputLines.suffix(3))")
            #expect(summary["event"] as? String == "summary", "\(summary)")
            #expect(summary["interrupted"] as? Bool == true, "\(summary)")
            #expect(summary["succeeded"] as? Int == succeeded.count, "\(summary)")
            // `ferry send` deletes a succeeded job's row: every job not in the journal any more
            // succeeded, and has its line.
            let left = try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs()
            let kept = Set(left.flatMap(\.spec.files).map(\.path))
            #expect(succeeded.isDisjoint(with: kept))
            #expect(succeeded.union(kept) == Set(files), "\(succeeded.count) succeeded, \(kept.count) kept of \(count)")
            #expect(left.count < count, "the run ended part-way")
            #expect(summary["queued"] as? Int == left.filter { $0.state == .queued }.count, "\(summary)")
            _ = server
        }
    }
}
