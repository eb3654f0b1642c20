import FerryApp
import FerryRuntime
import Foundation
import Testing
import TestSupport
import Uploading

/// The interface's start-up policy against a real journal in a scratch folder.
@Suite("Interface start-up")
struct InterfaceStartupTests {
    let folder = TemporaryDirectory()

    var journalPath: String { folder.path + "/journal.sqlite" }

    /// Leaves `count` waiting jobs of `client` in the journal, as a run that quit would.
    func leaveJobs(_ count: Int, of client: JournalClient) throws {
        let journal = try UploadJournal(path: journalPath, client: client)
        let manager = UploadManager(transport: FakeTransport(), journal: journal)
        manager.pause()
        let specs = (0..<count).map { index in
            UploadJobSpec(url: "http://127.0.0.1:9/u", files: [QueuedFile(path: "/x/\(index).txt", size: 1, modificationTimeNanoseconds: 1)])
        }
        _ = try manager.enqueue(specs)
        manager.stop()
        manager.flushJournal()
        try journal.close()
    }

    @Test("unfinished jobs of an earlier run come back waiting, the engine paused until p")
    func unfinishedJobsWaitPaused() throws {
        try leaveJobs(2, of: .interface)
        let journal = try UploadJournal(path: journalPath, client: .interface)
        defer { try? journal.close() }
        let manager = UploadManager(transport: FakeTransport(), journal: journal)
        let messages = InterfaceStartup.restore(into: manager, journal: journal)
        guard messages.count == 1, case let .jobsRestored(jobs, paused, others)? = messages.first else {
            Issue.record("not restored: \(messages)")
            return
        }
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.state == .queued })
        #expect(paused && others == 0)
        #expect(manager.snapshot().isPaused)
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

    @Test("cancelled jobs of an earlier run are cleared, and the model is told how many")
    func cancelledJobsAreCounted() throws {
        let first = try UploadJournal(path: journalPath, client: .interface)
        let manager = UploadManager(transport: FakeTransport(), journal: first)
        manager.pause()
        let ids = try manager.enqueue([UploadJobSpec(url: "http://127.0.0.1:9/u",
                                                     files: [QueuedFile(path: "/x/c.txt", size: 1, modificationTimeNanoseconds: 1)])])
        manager.cancel(ids[0])
        manager.stop()
        manager.flushJournal()
        try first.close()
        let journal = try UploadJournal(path: journalPath, client: .interface)
        defer { try? journal.close() }
        let messages = InterfaceStartup.restore(into: UploadManager(transport: FakeTransport(), journal: journal), journal: journal)
        #expect(messages == [.jobsRestored([], paused: false, othersWaiting: 0), .cancelledJobsCleared(1)])
        var state = AppState(directory: "/", settings: FormSettings(), homeDirectory: "/", size: .init(width: 80, height: 24))
        for message in messages { _ = state.update(message) }
        #expect(state.notice == "1 cancelled upload(s) of last time were cleared")
    }
}
