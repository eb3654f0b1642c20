import Foundation
import Testing
import TestSupport
@testable import Uploading

/// A process killed with SIGKILL in the middle of uploads loses no job: the test runs this test
/// binary again as a child that queues jobs, starts uploading and kills itself; then it restores
/// the child's journal.
@Suite("Journal survives SIGKILL")
struct JournalCrashTests {
    static let childVariable = "FERRY_UPLOADING_CRASH_CHILD_JOURNAL"
    static let jobCount = 20

    /// The child's part; does nothing unless started by `sigkillLosesNoJob`.
    @Test("crash child (runs only as the child of the SIGKILL test)")
    func crashChild() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let directory = (path as NSString).deletingLastPathComponent
        let journal = try UploadJournal(path: path)
        let transport = FakeTransport()
        let manager = UploadManager(configuration: .init(concurrencyLimit: 3), transport: transport, journal: journal)
        let specs = (0..<Self.jobCount).map { index -> UploadJobSpec in
            let file = (directory as NSString).appendingPathComponent("file\(index).bin")
            _ = FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x42, count: 1000))
            return Fixtures.spec(file)
        }
        let ids = try manager.enqueue(specs)
        manager.waitForRootQueue()
        transport.progress(job: ids[0], bytesSent: 500)
        transport.respond(job: ids[1], status: 200)
        manager.waitForRootQueue()
        // Mid-upload: requests in flight, journal writes possibly pending.
        kill(getpid(), SIGKILL)
    }

    @Test("a child killed with SIGKILL mid-upload loses no job")
    func sigkillLosesNoJob() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path("journal.sqlite")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "crashChild"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.childVariable] = path
        child.environment = environment
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
