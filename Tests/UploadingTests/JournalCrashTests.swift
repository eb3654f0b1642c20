import Foundation
import Testing
import TestSupport
@testable import Uploading

/// A process killed with SIGKILL in the middle of uploads loses no job: the test runs the
/// `JournalCrashChild` helper (built beside this test binary), which queues jobs, starts
/// uploading and kills itself; then it restores the child's journal.
@Suite("Journal survives SIGKILL")
struct JournalCrashTests {
    static let jobCount = 20

    @Test("a child killed with SIGKILL mid-upload loses no job")
    func sigkillLosesNoJob() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("journal.sqlite")
        let child = Process()
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        child.executableURL = buildDirectory.appendingPathComponent("JournalCrashChild")
        child.arguments = [path, String(Self.jobCount)]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let journal = try UploadJournal(path: path)
        let rows = try journal.allJobs()
        #expect(rows.count == Self.jobCount)
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let manager = UploadManager(transport: transport, journal: journal)
        let restored = try manager.restore()
        // Every job comes back except one the child saw succeed (if that write landed in time).
        #expect(restored.count >= Self.jobCount - 1)
        #expect(restored.allSatisfy { $0.state == .queued || $0.state == .uploading })
        let summary = await manager.waitUntilIdle()
        #expect(summary.succeeded == restored.count)
        #expect(summary.failed == 0)
    }
}
