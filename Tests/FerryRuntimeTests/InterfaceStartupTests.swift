import FerryApp
import FerryRuntime
import Foundation
import Testing
import TestSupport
import UploadModel
import UploadEngine
import UploadJournal

/// The interface's start-up policy against a real journal in a scratch folder.
@Suite("Interface start-up")
struct InterfaceStartupTests {
    let folder = TemporaryDirectory()

    var journalPath: String { folder.path + "/journal.sqlite" }

    /// A spec sending a file of the scratch folder, made now.
    func spec(_ name: String) throws -> UploadJobSpec {
        let path = folder.path + "/" + name
        try TestFile.write(Array("x".utf8), to: path)
        return UploadJobSpec(url: "http://127.0.0.1:9/u", files: [QueuedFile.capture(path: path)])
    }

    /// Leaves `count` waiting jobs of `client` in the journal, as a run that quit would.
    func leaveJobs(_ count: Int, of client: JournalClient) throws {
        let journal = try UploadJournal(path: journalPath, client: client)
        let manager = UploadManager(transport: FakeTransport(), journal: journal)
        manager.pause()
        let specs = try (0..<count).map { index in try spec("\(index).txt") }
        _ = try manager.enqueue(specs)
        manager.stop()
        manager.flushJournal()
        try journal.close()
    }

    @Test("unfinished jobs of an earlier run come back held; the engine runs, so a new upload starts at once; p's release starts them")
    func unfinishedJobsAreHeldNewOnesStart() async throws {
        try leaveJobs(2, of: .interface)
        let journal = try UploadJournal(path: journalPath, client: .interface)
        defer { try? journal.close() }
        let transport = FakeTransport()
        let manager = UploadManager(transport: transport, journal: journal)
        let messages = InterfaceStartup.restore(into: manager, journal: journal)
        guard messages.count == 1, case let .jobsRestored(jobs, paused, others)? = messages.first else {
            Issue.record("not restored: \(messages)")
            return
        }
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.state == .queued && $0.isHeld })
        #expect(!paused && others == 0)
        #expect(!manager.snapshot().isPaused)
        let new = try manager.enqueue(spec("new.txt"))
        try await Self.waitFor("the new upload to start") { transport.calls.map(\.jobID) == [new] }
        #expect(manager.snapshot().jobs.filter(\.isHeld).map(\.id) == jobs.map(\.id), "the restored jobs are still held")
        manager.releaseHeld()
        try await Self.waitFor("the held jobs to start") { Set(transport.calls.map(\.jobID)) == Set([new] + jobs.map(\.id)) }
        #expect(manager.snapshot().jobs.allSatisfy { !$0.isHeld })
        manager.stop()
    }

    /// Polls `condition` every 20 ms for up to 10 s without holding a thread.
    static func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<500 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("timed out waiting for \(what)")
    }

    @Test("with nothing left over, the engine runs; ferry send's jobs are only counted")
    func nothingLeftRuns() throws {
        try leaveJobs(3, of: .send)
        let journal = try UploadJournal(path: journalPath, client: .interface)
        defer { try? journal.close() }
        let manager = UploadManager(transport: FakeTransport(), journal: journal)
        #expect(InterfaceStartup.restore(into: manager, journal: journal) == [.jobsRestored([], paused: false, othersWaiting: 3)])
        #expect(!manager.snapshot().isPaused)
    }

    @Test("a pause the user left on stays on, with no jobs waiting")
    func rememberedPauseStays() throws {
        let first = try UploadJournal(path: journalPath, client: .interface)
        try InterfaceStateStore(journal: first).save(true, forKey: EngineCommandPerformer.pauseKey)
        try first.close()
        let journal = try UploadJournal(path: journalPath, client: .interface)
        defer { try? journal.close() }
        let manager = UploadManager(transport: FakeTransport(), journal: journal)
        #expect(InterfaceStartup.restore(into: manager, journal: journal) == [.jobsRestored([], paused: true, othersWaiting: 0)])
        #expect(manager.snapshot().isPaused)
    }

    @Test("without a journal the engine runs")
    func noJournal() {
        let manager = UploadManager(transport: FakeTransport())
        #expect(InterfaceStartup.restore(into: manager, journal: nil) == [.jobsRestored([], paused: false, othersWaiting: 0)])
        #expect(!manager.snapshot().isPaused)
    }

    @Test("cancelled jobs of an earlier run come back cancelled, to retry with r or remove with d")
    func cancelledJobsComeBack() async throws {
        let first = try UploadJournal(path: journalPath, client: .interface)
        let before = UploadManager(transport: FakeTransport(), journal: first)
        before.pause()
        let ids = try before.enqueue([spec("c.txt")])
        before.cancel(ids[0])
        before.stop()
        before.flushJournal()
        try first.close()
        let journal = try UploadJournal(path: journalPath, client: .interface)
        defer { try? journal.close() }
        let transport = FakeTransport()
        let manager = UploadManager(transport: transport, journal: journal)
        let messages = InterfaceStartup.restore(into: manager, journal: journal)
        guard messages.count == 1, case let .jobsRestored(jobs, paused, _)? = messages.first else {
            Issue.record("not restored: \(messages)")
            return
        }
        #expect(jobs.map(\.id) == ids && jobs.allSatisfy { $0.state == .cancelled } && !paused)
        #expect(try journal.allJobs().map(\.state) == [.cancelled], "the journal keeps the row")
        var state = AppState(directory: "/", settings: FormSettings(), homeDirectory: "/", size: .init(width: 80, height: 24))
        for message in messages { _ = state.update(message) }
        #expect(state.queue.rows[ids[0]]?.state == .cancelled)
        #expect(state.notice == "1 cancelled upload(s) from last time: r retries, d removes")
        state.focus = .queue
        let retry = state.update(.keyPressed(.key(.character("r"))))
        #expect(retry == [.retry(ids[0])])
        manager.retry(ids[0])
        try await Self.waitFor("the retried job to start") { transport.calls.map(\.jobID) == ids }
        manager.stop()
    }
}
