import Dispatch
import Foundation
import Multipart
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// A job is sent again automatically only when its body certainly did not complete: a cancel
/// decides by what was written, an answer that came first wins, a failure after the last byte
/// is "may have arrived", and the journal hears of a last byte and of a success before they
/// happen or are shown.
@Suite("Exactly once, or asked")
struct ExactlyOnceTests {
    private static let retries = RetryPolicy(maximumRetries: 3, baseDelay: .seconds(1))

    @Test("a cancel before the last byte cancels the job, and the last byte is held back")
    func cancelBeforeTheLastByte() throws {
        let harness = ManagerHarness(limit: 1, retry: Self.retries)
        let id = try harness.enqueue(1)[0]
        #expect(harness.transport.inFlightJobIDs == [id])
        harness.transport.progress(job: id, bytesSent: 10)
        harness.manager.cancel(id)
        harness.settle()
        // The event loop reaches the last byte after the cancel: it never goes.
        #expect(harness.transport.lastByteAllowed(call: 0) == false)
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .cancelled)
        #expect(!job.mayHaveArrived)
        #expect(harness.recorder.lines().contains("cancelled \(id)"))
    }

    @Test("a cancel after the last byte makes the job 'may have arrived', which R leaves alone")
    func cancelAfterTheLastByte() throws {
        let harness = ManagerHarness(limit: 1, retry: Self.retries)
        let id = try harness.enqueue(1)[0]
        #expect(harness.transport.sendWholeBody(job: id))
        harness.manager.cancel(id)
        harness.settle()
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .failed)
        #expect(job.lastError == .transferFailed(reason: .cancelledAfterSending))
        #expect(job.mayHaveArrived)
        harness.manager.retryFailedAndCancelled()
        harness.settle()
        #expect(harness.transport.calls.count == 1, "R must not send it again")
        // r is the user's explicit choice.
        harness.manager.retry(id)
        harness.settle()
        #expect(harness.transport.calls.count == 2)
    }

    @Test("a cancel that reaches the queue after the answer reached the transport loses to the answer")
    func cancelAfterTheAnswer() throws {
        let harness = ManagerHarness(limit: 1, retry: Self.retries)
        let id = try harness.enqueue(1)[0]
        #expect(harness.transport.sendWholeBody(job: id))
        let blocked = DispatchSemaphore(value: 0)
        harness.manager.root.async { blocked.wait() }
        harness.manager.cancel(id)
        // The answer comes behind the cancel: the turn being taken, it is handed to the root
        // queue behind the cancel.
        let answered = DispatchGroup()
        DispatchQueue.global().async(group: answered) { harness.transport.respond(job: id, status: 201) }
        // The answer reached the transport (out of flight) before the queue hears the cancel.
        while !harness.transport.inFlight.isEmpty { usleep(100) }
        blocked.signal()
        answered.wait()
        harness.settle()
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .succeeded)
        #expect(harness.transport.calls.count == 1)
    }

    @Test("a cancel that comes before the answer and after the last byte, then an answer, still succeeds")
    func interruptedTransferAnsweredFirst() throws {
        // The manager waits for an interrupted transfer's outcome: a 2xx that the transport had
        // already received wins even when it is reported after the cancel.
        let transport = FakeTransport()
        let harness = ManagerHarness(limit: 1, retry: Self.retries, transport: transport)
        let id = try harness.enqueue(1)[0]
        #expect(transport.sendWholeBody(job: id))
        let blocked = DispatchSemaphore(value: 0)
        harness.manager.root.async { blocked.wait() }
        // The answer is handed to the root queue (its turn is taken); once the fake has taken
        // the request out of flight it is on its way, and the cancel comes (almost always)
        // behind it. Either order must end in the success.
        let answered = DispatchGroup()
        DispatchQueue.global().async(group: answered) { transport.respond(job: id, status: 200) }
        while !transport.inFlight.isEmpty { usleep(100) }
        harness.manager.cancel(id)
        blocked.signal()
        answered.wait()
        harness.settle()
        #expect(harness.manager.job(id)?.state == .succeeded)
    }

    @Test("a connection lost after the last byte is not retried: the job may have arrived")
    func failureAfterTheLastByteIsNotRetried() throws {
        let harness = ManagerHarness(limit: 1, retry: Self.retries)
        let id = try harness.enqueue(1)[0]
        #expect(harness.transport.sendWholeBody(job: id))
        let lost = UploadError.TransferReason.connectionLost(message: "reset by peer")
        harness.transport.fail(job: id, with: .transferFailed(reason: lost))
        harness.settle()
        harness.advance(by: .seconds(120))
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .failed)
        #expect(job.lastError == .transferFailed(reason: .unansweredAfterSending(lost)))
        #expect(job.mayHaveArrived)
        #expect(harness.transport.calls.count == 1)
    }

    @Test("a lost answer where the server named a job's key back is sent again by itself, with the same Idempotency-Key")
    func lostAnswerAtAServerHonouringKeysIsResent() throws {
        let harness = ManagerHarness(limit: 2, retry: Self.retries)
        let ids = try harness.enqueue(2)
        func key(ofCall index: Int) -> String? {
            harness.transport.calls[index].request.message.headers.first { $0.name == "Idempotency-Key" }?.value
        }
        let first = try #require(key(ofCall: 0))
        let second = try #require(key(ofCall: 1))
        #expect(first != second, "one key per job")
        harness.transport.respond(job: ids[0], status: 200, headers: [HeaderField(name: "Idempotency-Key", value: first)])
        #expect(harness.transport.sendWholeBody(job: ids[1]))
        let lost = UploadError.TransferReason.connectionLost(message: "reset by peer")
        harness.transport.fail(job: ids[1], with: .transferFailed(reason: lost))
        harness.settle()
        #expect(harness.manager.job(ids[1])?.mayHaveArrived == false)
        harness.advance(by: .seconds(2))
        #expect(harness.transport.calls.count == 3, "sent again automatically")
        #expect(key(ofCall: 2) == second, "with the key of its first attempt")
        harness.transport.respond(job: ids[1], status: 200, headers: [HeaderField(name: "Idempotency-Key", value: second)])
        harness.settle()
        #expect(harness.manager.job(ids[1])?.state == .succeeded)
    }

    @Test("a failure after the last byte that the connection proved incomplete at the server is retried, once per retry")
    func incompleteAtServerIsRetried() throws {
        let harness = ManagerHarness(limit: 1, retry: Self.retries)
        let id = try harness.enqueue(1)[0]
        #expect(harness.transport.sendWholeBody(job: id))
        let lost = UploadError.TransferReason.connectionLost(message: "reset by peer")
        harness.transport.fail(job: id, with: .transferFailed(reason: .incompleteAtServer(lost)))
        harness.settle()
        let waiting = try #require(harness.manager.job(id))
        #expect(!waiting.mayHaveArrived, "the server cannot have stored it: nothing for the user to decide")
        #expect(waiting.state == .queued)
        harness.advance(by: .seconds(2))
        #expect(harness.transport.calls.count == 2, "sent again automatically")
        #expect(harness.transport.sendWholeBody(job: id))
        harness.transport.respond(job: id, status: 201)
        harness.settle()
        #expect(harness.manager.job(id)?.state == .succeeded)
    }

    @Test("a connection lost before the last byte is retried as before")
    func failureBeforeTheLastByteIsRetried() throws {
        let harness = ManagerHarness(limit: 1, retry: Self.retries)
        let id = try harness.enqueue(1)[0]
        harness.transport.progress(job: id, bytesSent: 10)
        harness.transport.fail(job: id, with: .transferFailed(reason: .connectionLost(message: "reset by peer")))
        harness.settle()
        harness.advance(by: .seconds(2))
        #expect(harness.transport.calls.count == 2)
    }

    @Test("a stop after the last byte fails the job as stopped after sending; before it, the job is queued again")
    func stopDecidesByTheGate() throws {
        let harness = ManagerHarness(limit: 2, retry: Self.retries)
        let ids = try harness.enqueue(2)
        #expect(harness.transport.sendWholeBody(job: ids[0]))
        harness.transport.progress(job: ids[1], bytesSent: 99)
        harness.manager.stop()
        harness.settle()
        #expect(harness.manager.job(ids[0])?.lastError == .transferFailed(reason: .stoppedAfterSending))
        #expect(harness.manager.job(ids[1])?.state == .queued)
        #expect(harness.transport.lastByteAllowed(call: 1) == false)
    }

    @Test("the journal holds the last byte's mark before the server can have it, and the success's before it is shown")
    func marksComeFirst() async throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("journal.sqlite"))
        let transport = FakeTransport()
        let manager = UploadManager(transport: transport, journal: journal)
        let seen = Mutex<[JournalMark]?>(nil)
        let subscription = manager.subscribe { events in
            guard events.contains(where: { if case .succeeded = $0 { true } else { false } }) else { return }
            seen.withLock { $0 = try? JournalMarkLog.marks(inFile: journal.marks.path) }
        }
        defer { subscription.cancel() }
        let id = try manager.enqueue(Fixtures.spec(directory.file("a.bin")))
        manager.waitForRootQueue()
        // The last byte is let go only once its mark is in the file.
        #expect(transport.sendWholeBody(job: id))
        #expect(try JournalMarkLog.marks(inFile: journal.marks.path) == [.bodyMayComplete(id, attempt: 1)])
        transport.respond(job: id, status: 200)
        _ = await manager.waitUntilIdle()
        #expect(seen.withLock { $0 }?.contains(.succeeded(id)) == true)
        // Idle and written: the marks are in the rows and forgotten.
        manager.flushJournal()
        #expect(journal.marks.usedBytes == 0)
    }

    @Test("pause and cancel answer while a start is stuck in the file system")
    func stuckStartDoesNotHoldTheQueue() throws {
        let stuck = DispatchSemaphore(value: 0)
        let transport = FakeTransport { _, index in
            // The first start reads its small body here: a path that never answers.
            if index == 0 { stuck.wait() }
            return .hold
        }
        let directory = TemporaryDirectory()
        let manager = UploadManager(configuration: .init(concurrencyLimit: 1), transport: transport, scheduler: ManualScheduler())
        let events = Mutex<[UploadEvent]>([])
        let subscription = manager.subscribe { batch in events.withLock { $0 += batch } }
        defer { subscription.cancel() }
        let ids = try manager.enqueue([Fixtures.spec(directory.file("stuck.bin")), Fixtures.spec(directory.file("next.bin"))])
        let deadline = ContinuousClock.now + .seconds(30)
        // The fake records a call before its script runs: the first is in its hands, stuck.
        while transport.calls.isEmpty, ContinuousClock.now < deadline { usleep(1000) }
        let asked = ContinuousClock.now
        manager.pause()
        manager.cancel(ids[0])
        func answered() -> Bool {
            events.withLock { events in
                events.contains { if case .pausedChanged(true) = $0 { true } else { false } }
                    && events.contains { if case let .cancelled(job) = $0 { job.id == ids[0] } else { false } }
            }
        }
        while !answered(), ContinuousClock.now < deadline { usleep(1000) }
        let took = asked.duration(to: .now)
        #expect(answered(), "pause and cancel answered while the first start was still stuck")
        #expect(transport.cancelled.isEmpty, "still stuck in the transport's start")
        print("pause and cancel answered in \(took) with a start stuck")
        // Unstuck, the cancelled start's transfer is aborted at once; the paused queue starts nothing.
        stuck.signal()
        manager.waitForRootQueue()
        #expect(transport.cancelled.map(\.jobID) == [ids[0]])
        #expect(transport.calls.count == 1)
    }

    @Test("a removed journal stops new starts at once and says why; resume is refused")
    func removedJournalStopsStarts() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("journal.sqlite")
        let journal = try UploadJournal(path: path)
        let harness = ManagerHarness(limit: 1, retry: Self.retries, journal: journal)
        let ids = try harness.enqueue(3)
        #expect(harness.transport.inFlightJobIDs == [ids[0]])
        unlink(path)
        harness.transport.sendWholeBody(job: ids[0])
        harness.transport.respond(job: ids[0], status: 200)
        let deadline = ContinuousClock.now + .seconds(30)
        func failed() -> UploadError? {
            harness.recorder.all.lazy.compactMap { if case let .journalFailed(error) = $0 { error } else { nil } }.first
        }
        while failed() == nil, ContinuousClock.now < deadline { usleep(5000) }
        #expect(failed() == .journalFailed(reason: .removed(path: path)))
        #expect(failed()?.description.contains("was removed") == true)
        // The job that started before the failure was known ends; nothing new starts.
        for id in harness.transport.inFlightJobIDs {
            harness.transport.sendWholeBody(job: id)
            harness.transport.respond(job: id, status: 200)
        }
        harness.settle()
        let started = harness.transport.calls.count
        harness.manager.resume()
        harness.settle()
        #expect(harness.transport.calls.count == started)
        #expect(harness.manager.job(ids[2])?.state == .queued)
    }
}
