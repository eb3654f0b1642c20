import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// The journal's writes failing at each step, by an error a test double of the journal injects
/// (`FaultInjectingJournal`): the queueing insert, the row update at an attempt's start,
/// the `bodyMayComplete` mark before the last byte, the `succeeded` mark before the success is
/// shown, the final row update. At each: nothing answered is sent again, nothing is shown
/// succeeded that the journal may not know, the failure is said in words, new starts stop, and a
/// restore after the fault (a later process, or the fault cleared) sends none of what was
/// answered. `JournalFullDiskTests` does the same on a real full tmpfs.
@Suite("Journal writes failing at each step")
struct JournalFaultTests {
    /// A journal in a temporary directory and a manager (concurrency 1) over a fake transport.
    private struct Setup {
        let directory = TemporaryDirectory()
        let path: String
        /// The real journal, read to see what was written.
        let journal: UploadJournal
        /// The journal as the manager sees it, failing the writes a test picks.
        let faults: FaultInjectingJournal
        let harness: ManagerHarness

        init() throws {
            path = directory.path("journal.sqlite")
            journal = try UploadJournal(path: path)
            faults = FaultInjectingJournal(journal)
            harness = ManagerHarness(limit: 1, journal: faults)
        }

        /// The journal failures said so far.
        var failures: [UploadError] {
            harness.recorder.all.compactMap { if case let .journalFailed(error) = $0 { error } else { nil } }
        }

        /// A job's row now: its state, "deleted" when there is none (`ferry send`'s journal
        /// deletes a succeeded job's row), "unreadable" when the journal cannot be read.
        func row(_ id: UploadJobID) -> String {
            do {
                return try journal.job(id).map { "\($0.state)" } ?? "deleted"
            } catch {
                return "unreadable"
            }
        }

        /// Whether the queue said it paused.
        var paused: Bool {
            harness.recorder.all.contains { if case .pausedChanged(true) = $0 { true } else { false } }
        }

        /// Lets a job's whole body go and answers it 200.
        func answer(_ id: UploadJobID) {
            #expect(harness.transport.sendWholeBody(job: id))
            harness.transport.respond(job: id, status: 200)
            harness.settle()
        }

        /// Checks that nothing new starts and that `resume()` is refused, saying why again.
        func expectStartsStopped(sourceLocation: SourceLocation = #_sourceLocation) {
            let calls = harness.transport.calls.count
            let said = failures.count
            harness.manager.resume()
            harness.settle()
            #expect(harness.transport.calls.count == calls, "nothing new starts", sourceLocation: sourceLocation)
            #expect(failures.count == said + 1, "resume is refused with the reason", sourceLocation: sourceLocation)
        }
    }

    /// Polls `condition` (never blocking the test's thread) for up to 10 s.
    private static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// What a later process restoring the journal sends (every request answered 200).
    private static func sentOnRestore(path: String) async throws -> (sent: Set<UploadJobID>, restored: [UploadJob]) {
        let reopened = try UploadJournal(path: path)
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let manager = UploadManager(transport: transport, journal: reopened)
        let restored = try manager.restore()
        _ = await manager.waitUntilIdle()
        manager.flushJournal()
        try reopened.close()
        return (Set(transport.calls.map(\.jobID)), restored)
    }

    private static func isWriteFailure(_ error: UploadError?) -> Bool {
        if case .journalFailed(reason: .writeFailed) = error { true } else { false }
    }

    @Test("the queueing insert fails: nothing is queued, the reason is said, new starts stop; cleared, the queue goes on")
    func insertFails() async throws {
        let setup = try Setup()
        let harness = setup.harness
        let ids = try harness.enqueue(2)
        #expect(harness.transport.inFlightJobIDs == [ids[0]])
        // The disk refuses inserts (and the writer's probe of it).
        setup.faults.injectFaults { point in
            if case .insert = point { true } else { point == .probe }
        }
        let late = Fixtures.spec(harness.directory.file("late.bin"))
        #expect {
            try harness.manager.enqueue(late)
        } throws: { error in
            (error as? UploadError)?.description.contains("could not write the journal") == true
        }
        harness.settle()
        #expect(Self.isWriteFailure(setup.failures.first), "\(setup.failures)")
        #expect(setup.paused)
        #expect(harness.manager.snapshot().jobs.map(\.id) == ids, "the refused job is not queued")
        // The job in flight ends; the next one does not start.
        setup.answer(ids[0])
        #expect(harness.manager.job(ids[1])?.state == .queued)
        setup.expectStartsStopped()

        // The fault cleared: the writer's next probe reports it, and resume is accepted.
        setup.faults.injectFaults(nil)
        #expect(try await Self.eventually {
            harness.manager.resume()
            harness.settle()
            return harness.transport.calls.count == 2
        })
        setup.answer(ids[1])
        harness.manager.flushJournal()
        let (sent, _) = try await Self.sentOnRestore(path: setup.path)
        #expect(sent.isEmpty, "answered jobs sent again: \(sent.sorted())")
    }

    @Test("the row update at an attempt's start fails: the attempt ends, nothing new starts; cleared, rows catch up and nothing answered is sent again")
    func startUpdateFails() async throws {
        let setup = try Setup()
        let harness = setup.harness
        setup.faults.injectFaults { point in
            guard case let .apply(changes) = point else { return false }
            return changes.contains { if case let .update(job, _) = $0 { job.state == .uploading } else { false } }
        }
        let known = SuccessKnowledge(harness.manager, setup.journal)
        let ids = try harness.enqueue(3)
        #expect(try await Self.eventually { !setup.failures.isEmpty })
        let reason = try #require(setup.failures.first)
        #expect(reason.description.contains("could not write the journal"), "\(reason)")
        #expect(setup.paused)
        // The attempt that started before the failure was known ends, shown succeeded only
        // with its mark written.
        setup.answer(ids[0])
        #expect(harness.manager.job(ids[0])?.state == .succeeded)
        #expect(known.all == [ids[0]: true])
        #expect(harness.transport.calls.count == 1)
        setup.expectStartsStopped()

        // Cleared: the kept batch is written; resume is accepted and the queue goes on.
        setup.faults.injectFaults(nil)
        #expect(try await Self.eventually { setup.row(ids[0]) == "deleted" })
        #expect(try await Self.eventually {
            harness.manager.resume()
            harness.settle()
            return harness.transport.calls.count == 2
        })
        setup.answer(ids[1])
        harness.manager.pause()
        harness.settle()
        harness.manager.flushJournal()
        let (sent, _) = try await Self.sentOnRestore(path: setup.path)
        #expect(sent == [ids[2]], "only the job never sent is sent: \(sent.sorted())")
    }

    @Test("a marks file that cannot be read is named with the C library's words")
    func unreadableMarks() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("journal.sqlite-marks-1-00")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: UploadError.journalFailed(reason: .readFailed(message: "cannot read the journal's marks in \(path): Is a directory"))) {
            try JournalMarkLog.marks(inFile: path)
        }
    }

    @Test("the bodyMayComplete mark fails: the last byte is held back (certainly not sent), the reason is said, new starts stop; cleared, it may be sent")
    func lastByteMarkFails() async throws {
        let setup = try Setup()
        let harness = setup.harness
        let ids = try harness.enqueue(3)
        setup.faults.injectFaults { $0 == .mark(.bodyMayComplete(ids[0], attempt: 1)) || $0 == .probe }
        #expect(!harness.transport.sendWholeBody(job: ids[0]), "the last byte is held back")
        harness.settle()
        let job = try #require(harness.manager.job(ids[0]))
        #expect(job.state == .failed)
        #expect(!job.mayHaveArrived, "certainly not sent")
        #expect(job.lastError?.description.contains("held back") == true, "\(String(describing: job.lastError))")
        #expect(Self.isWriteFailure(setup.failures.first), "\(setup.failures)")
        #expect(setup.paused)
        #expect(harness.transport.calls.count == 1, "the next job does not start")
        setup.expectStartsStopped()

        // Cleared: resume is accepted once the writer's probe passes; the held-back job was not
        // sent, so retrying it (the user's R) may send it.
        setup.faults.injectFaults(nil)
        #expect(try await Self.eventually {
            harness.manager.resume()
            harness.settle()
            return harness.transport.calls.count == 2
        })
        setup.answer(ids[1])
        setup.answer(ids[2])
        harness.manager.retryFailedAndCancelled()
        harness.settle()
        #expect(harness.transport.inFlightJobIDs == [ids[0]])
        setup.answer(ids[0])
        harness.manager.flushJournal()
        let (sent, _) = try await Self.sentOnRestore(path: setup.path)
        #expect(sent.isEmpty, "answered jobs sent again: \(sent.sorted())")
    }

    @Test("the succeeded mark fails: the row is deleted before the success is shown, the reason is said, new starts stop; a later process sends nothing answered")
    func successMarkFails() async throws {
        let setup = try Setup()
        let harness = setup.harness
        let ids = try harness.enqueue(3)
        setup.faults.injectFaults { $0 == .mark(.succeeded(ids[0])) || $0 == .probe }
        let rowAtShowing = Mutex<String?>(nil)
        let events = DispatchQueue(label: "ferry.tests.success-row")
        let subscription = harness.manager.subscribe(on: events) { events in
            for case let .succeeded(job) in events where job.id == ids[0] {
                let row = setup.row(job.id)
                rowAtShowing.withLock { $0 = row }
            }
        }
        defer { subscription.cancel() }
        setup.answer(ids[0])
        events.sync {}
        #expect(harness.manager.job(ids[0])?.state == .succeeded)
        // `ferry send`'s journal deletes a succeeded job's row: gone, it is not sent again.
        #expect(rowAtShowing.withLock { $0 } == "deleted", "the row was deleted when the success was shown")
        #expect(try !JournalMarkLog.marks(inFile: setup.journal.marks.path).contains(.succeeded(ids[0])))
        #expect(Self.isWriteFailure(setup.failures.first), "\(setup.failures)")
        #expect(setup.failures.first?.description.contains("could not be marked") == true)
        #expect(setup.paused)
        #expect(harness.transport.calls.count == 1, "the next job does not start")
        setup.expectStartsStopped()

        // Killed with the fault still there (this handle is left as a kill leaves it): a later
        // process sends the two jobs never sent, not the answered one.
        let (sent, _) = try await Self.sentOnRestore(path: setup.path)
        #expect(sent == [ids[1], ids[2]], "\(sent.sorted())")
    }

    @Test("the final row update fails: the success is shown with its mark written, new starts stop; a later process sends nothing answered")
    func finalUpdateFails() async throws {
        let setup = try Setup()
        let harness = setup.harness
        let known = SuccessKnowledge(harness.manager, setup.journal)
        let ids = try harness.enqueue(4)
        // The attempt's start is written first.
        #expect(try await Self.eventually { (try? setup.journal.job(ids[0]))??.state == .uploading })
        setup.faults.injectFaults { point in
            guard case let .apply(changes) = point else { return false }
            return changes.contains { if case let .update(job, _) = $0 { job.state == .succeeded } else { false } }
        }
        setup.answer(ids[0])
        #expect(try await Self.eventually { !setup.failures.isEmpty })
        let reason = try #require(setup.failures.first)
        #expect(reason.description.contains("could not write the journal"), "\(reason)")
        #expect(setup.paused)
        // The job that started before the failure was known (the success's step starts the next)
        // ends; then nothing new starts.
        for id in harness.transport.inFlightJobIDs { setup.answer(id) }
        let answered = Set(harness.transport.calls.map(\.jobID))
        #expect(answered.count <= 2 && answered.contains(ids[0]))
        for id in answered {
            #expect(harness.manager.job(id)?.state == .succeeded)
            #expect(known.all[id] == true, "job \(id) shown succeeded before the journal knew")
            #expect((try? setup.journal.job(id))??.state != .succeeded, "the row was not written")
        }
        setup.expectStartsStopped()

        // Killed with the fault still there: the marks speak for the rows.
        let (sent, restored) = try await Self.sentOnRestore(path: setup.path)
        #expect(sent.isDisjoint(with: answered), "answered jobs sent again: \(sent.intersection(answered).sorted())")
        #expect(sent.union(answered) == Set(ids))
        #expect(restored.allSatisfy { !$0.mayHaveArrived })
    }
}

/// Records, for each success a manager shows, whether the journal knew it then: its `succeeded`
/// mark is in the mark file, or its row says succeeded.
private final class SuccessKnowledge: Sendable {
    private final class Box: Sendable {
        let known = Mutex<[UploadJobID: Bool]>([:])
    }

    private let box = Box()
    private let queue = DispatchQueue(label: "ferry.tests.success-knowledge")
    private let subscription = Mutex<UploadSubscription?>(nil)

    init(_ manager: UploadManager, _ journal: UploadJournal) {
        let box = box
        let subscription = manager.subscribe(on: queue) { events in
            for case let .succeeded(job) in events {
                let marked = (try? JournalMarkLog.marks(inFile: journal.marks.path))?.contains(.succeeded(job.id)) ?? false
                let row = (try? journal.job(job.id))??.state == .succeeded
                box.known.withLock { $0[job.id] = marked || row }
            }
        }
        self.subscription.withLock { $0 = subscription }
    }

    /// Each success shown so far, and whether the journal knew it then.
    /// (Call after the manager handed its events over, e.g. after `ManagerHarness.settle()`.)
    var all: [UploadJobID: Bool] {
        queue.sync {}
        return box.known.withLock { $0 }
    }

    deinit {
        subscription.withLock { $0 }?.cancel()
    }
}
