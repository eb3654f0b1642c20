import Foundation
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// The journal on a real, small tmpfs that fills up mid-run: new starts stop, the reason is
/// said, and once there is room again nothing that was answered is sent again. Needs `mount`
/// (CI runs as root); skipped where mounting is refused.
@Suite("A journal on a full disk", .enabled(if: Tmpfs.isPermitted, "mounting a 1 MiB tmpfs needs root (CAP_SYS_ADMIN); skipped"))
struct JournalFullDiskTests {
    /// Fills the file system holding `path` with a file there until it has no room.
    private static func fill(_ path: String) {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x7A, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // The last partial block too.
        while write(descriptor, block, 1) > 0 {}
    }

    @Test("a full disk stops new starts and queueing, and after it has room nothing answered is sent again")
    func fullDisk() async throws {
        let tmpfs = try Tmpfs(bytes: 1 << 20)
        defer { tmpfs.unmount() }
        let point = tmpfs.path
        let path = (point as NSString).appendingPathComponent("journal.sqlite")
        let journal = try UploadJournal(path: path)
        let harness = ManagerHarness(limit: 2, journal: journal)
        let ids = try harness.enqueue(40)
        var answered: Set<UploadJobID> = []
        func answerInFlight() {
            for id in harness.transport.inFlightJobIDs where harness.transport.sendWholeBody(job: id) {
                harness.transport.respond(job: id, status: 200)
                answered.insert(id)
            }
            harness.settle()
        }
        for _ in 0..<5 { answerInFlight() }
        harness.manager.flushJournal()

        Self.fill((point as NSString).appendingPathComponent("filler"))
        // Queueing needs a row: refused, with the reason.
        #expect(throws: UploadError.self) { try harness.manager.enqueue(Fixtures.spec(harness.directory.file("late.bin"))) }
        // The jobs in flight are answered; their rows cannot be written.
        answerInFlight()
        let deadline = ContinuousClock.now + .seconds(30)
        func failure() -> UploadError? {
            harness.recorder.all.lazy.compactMap { if case let .journalFailed(error) = $0 { error } else { nil } }.first
        }
        while failure() == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let reason = try #require(failure())
        #expect(reason.description.contains("could not write the journal"), "\(reason)")
        // Jobs started before the failure was known end; then nothing new starts.
        answerInFlight()
        let started = harness.transport.calls.count
        harness.manager.resume()
        harness.settle()
        #expect(harness.transport.calls.count == started)
        #expect(harness.transport.inFlightJobIDs.isEmpty)
        harness.manager.flushJournal()
        try? journal.close()

        // Room again: a restore sends what was not answered, and nothing that was.
        unlink((point as NSString).appendingPathComponent("filler"))
        let reopened = try UploadJournal(path: path)
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let manager = UploadManager(transport: transport, journal: reopened)
        let restored = try manager.restore()
        _ = await manager.waitUntilIdle()
        let sentAgain = Set(transport.calls.map(\.jobID))
        #expect(sentAgain.isDisjoint(with: answered), "answered jobs sent again: \(sentAgain.intersection(answered).sorted())")
        #expect(sentAgain.union(answered) == Set(ids), "every job is answered or sent once")
        #expect(restored.allSatisfy { !$0.mayHaveArrived })
        manager.flushJournal()
        try reopened.close()
    }
}
