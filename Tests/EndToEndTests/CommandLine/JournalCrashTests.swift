import Foundation
import Testing
import TestSupport
@testable import UploadEngine
@testable import UploadJournal

/// A process killed with SIGKILL in the middle of uploads loses no job and sends none twice: the
/// test runs the `JournalCrashChild` helper (built beside this test binary), which queues jobs,
/// starts uploading and kills itself; then it restores the child's journal.
@Suite("Journal survives SIGKILL")
struct JournalCrashTests {
    static let jobCount = 20

    /// Runs the child with `arguments` after the journal's path and waits for its SIGKILL.
    private static func runChild(journal path: String, _ arguments: [String]) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: FerryBinary.buildDirectory + "/JournalCrashChild")
        child.arguments = [path] + arguments
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)
    }

    @Test("a child killed with SIGKILL mid-upload loses no job")
    func sigkillLosesNoJob() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("journal.sqlite")
        try Self.runChild(journal: path, ["mixed", String(Self.jobCount)])

        let journal = try UploadJournal(path: path)
        let rows = try journal.allJobs()
        // A row for every job, but the succeeded one's when its deletion was written in time.
        #expect(rows.count >= Self.jobCount - 1)
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let manager = UploadManager(transport: transport, journal: journal)
        let restored = try manager.restore()
        // Every job comes back but the one the child saw succeed (its success was marked before
        // it was shown, whether or not its row was written).
        #expect(restored.count == Self.jobCount - 1)
        #expect(restored.allSatisfy { $0.state == .queued || $0.state == .uploading })
        let summary = await manager.waitUntilIdle()
        #expect(summary.succeeded == restored.count)
        #expect(summary.failed == 0)
    }

    /// What a restore must make of a job killed at a step, its rows held back from the step on.
    enum Expected {
        /// Queued again and sent.
        case sentAgain
        /// Failed as "may have arrived", not sent.
        case mayHaveArrived
        /// Known as succeeded, not restored, not sent.
        case succeeded
    }

    @Test("killed at each step of a job, with only the marks written ahead to tell, the restore sends it again only when its body certainly did not complete",
          arguments: [("queued", Expected.sentAgain), ("sending", .sentAgain), ("body-sent", .mayHaveArrived), ("answered", .succeeded)])
    func killedAtEachStep(step: String, expected: Expected) async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("journal.sqlite")
        try Self.runChild(journal: path, [step])

        let journal = try UploadJournal(path: path)
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let manager = UploadManager(transport: transport, journal: journal)
        let restored = try manager.restore()
        let summary = await manager.waitUntilIdle()
        switch expected {
        case .sentAgain:
            #expect(restored.count == 1)
            #expect(transport.calls.count == 1)
            #expect(summary.succeeded == 1)
        case .mayHaveArrived:
            #expect(restored.count == 1)
            #expect(restored.first?.lastError == .transferFailed(reason: .interruptedAfterSending))
            #expect(restored.first?.mayHaveArrived == true)
            #expect(transport.calls.isEmpty)
        case .succeeded:
            #expect(restored.isEmpty)
            #expect(transport.calls.isEmpty)
        }
        // The marks were taken into the rows: a second restore finds the same.
        manager.flushJournal()
        #expect(JournalMarkLog.files(besideJournal: path, excluding: journal.marks.path).isEmpty)
        let again = try journal.loadRestorableJobs()
        #expect(again.filter(\.mayHaveArrived).count == (expected == .mayHaveArrived ? 1 : 0))
    }
}
