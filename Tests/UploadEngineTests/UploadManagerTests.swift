import Foundation
import Multipart
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

@Suite("UploadManager with FakeTransport and ManualScheduler")
struct UploadManagerTests {
    @Test("events reach a subscriber gathered in few batches, in order, and all of them by the time the queue is idle")
    func eventsAreGathered() async throws {
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let harness = ManagerHarness(limit: 2, transport: transport)
        let batches = Mutex<[[UploadEvent]]>([])
        let queue = DispatchQueue(label: "ferry.tests.batches")
        let subscription = harness.manager.subscribe(on: queue) { batch in batches.withLock { $0.append(batch) } }
        defer { subscription.cancel() }
        let specs = (0..<200).map { Fixtures.spec(harness.directory.file("f\($0).bin", bytes: 10)) }
        let ids = try harness.manager.enqueue(specs)
        let summary = await harness.manager.waitUntilIdle()
        #expect(summary.succeeded == 200)
        // Nothing else is waited for: the idle event and all before it are on the queue already.
        let delivered = queue.sync { batches.withLock { $0 } }
        let events = delivered.flatMap { $0 }
        guard case .idle? = events.last else {
            Issue.record("the last event delivered is not idle: \(String(describing: events.last))")
            return
        }
        let succeeded = events.compactMap { event -> UploadJobID? in
            if case let .succeeded(job) = event { return job.id }
            return nil
        }
        #expect(Set(succeeded) == Set(ids))
        #expect(succeeded.count == 200)
        // 200 jobs at a concurrency of 2 take at least 100 steps of the queue; without gathering
        // each was a batch of its own.
        #expect(delivered.count < 50, "\(delivered.count) batches")
    }

    @Test("a long batch's events go out slice by slice, never gathered all at once")
    func longBatchEventsAreNotGatheredWhole() throws {
        let harness = ManagerHarness(limit: 2)
        harness.manager.pause()
        let sizes = Mutex<[Int]>([])
        let queue = DispatchQueue(label: "ferry.tests.batch-sizes")
        let subscription = harness.manager.subscribe(on: queue) { batch in sizes.withLock { $0.append(batch.count) } }
        defer { subscription.cancel() }
        let count = 5 * UploadManager.enqueueSliceSize
        let spec = Fixtures.spec(harness.directory.file("one.bin", bytes: 10))
        try harness.manager.enqueue(Array(repeating: spec, count: count))
        harness.manager.waitForRootQueue()
        let delivered = queue.sync { sizes.withLock { $0 } }
        #expect(delivered.reduce(0, +) >= count)
        #expect(delivered.count >= 5)
        #expect(delivered.allSatisfy { $0 <= UploadManager.enqueueSliceSize + 1 }, "\(delivered)")
    }

    @Test("the concurrency limit is never exceeded")
    func concurrencyLimit() throws {
        let harness = ManagerHarness(limit: 3)
        let ids = try harness.enqueue(10)
        #expect(harness.transport.inFlight.count == 3)
        while let call = harness.transport.inFlight.first {
            harness.transport.respond(job: call.jobID, status: 200)
            harness.settle()
            #expect(harness.transport.inFlight.count <= 3)
        }
        #expect(harness.transport.maxInFlight == 3)
        #expect(harness.transport.calls.map(\.jobID) == ids)
        let summary = harness.manager.snapshot().summary
        #expect(summary.succeeded == 10)
        #expect(harness.recorder.lines().last == "idle ok=10 failed=0 cancelled=0")
    }

    @Test("the limit changes while running: raising starts more at once, lowering aborts nothing")
    func liveLimit() throws {
        let harness = ManagerHarness(limit: 2)
        try harness.enqueue(8)
        #expect(harness.transport.inFlight.count == 2)
        harness.manager.setConcurrencyLimit(5)
        harness.settle()
        #expect(harness.transport.inFlight.count == 5)
        harness.manager.setConcurrencyLimit(1)
        harness.settle()
        #expect(harness.transport.inFlight.count == 5)
        #expect(harness.transport.cancelled.isEmpty)
        for call in harness.transport.inFlight.prefix(4) {
            harness.transport.respond(job: call.jobID, status: 200)
        }
        harness.settle()
        #expect(harness.transport.inFlight.count == 1)
        #expect(harness.transport.calls.count == 5)
        harness.transport.respond(job: harness.transport.inFlight[0].jobID, status: 200)
        harness.settle()
        #expect(harness.transport.inFlight.count == 1)
        #expect(harness.transport.calls.count == 6)
        #expect(harness.manager.snapshot().concurrencyLimit == 1)
    }

    @Test("pause starts nothing new; resume does")
    func pauseResume() throws {
        let harness = ManagerHarness(limit: 2)
        harness.manager.pause()
        try harness.enqueue(3)
        #expect(harness.transport.calls.isEmpty)
        #expect(harness.manager.snapshot().isPaused)
        harness.manager.resume()
        harness.settle()
        #expect(harness.transport.inFlight.count == 2)
        harness.manager.pause()
        harness.transport.respond(job: harness.transport.inFlight[0].jobID, status: 200)
        harness.settle()
        #expect(harness.transport.inFlight.count == 1)
        #expect(harness.transport.calls.count == 2)
        #expect(harness.recorder.lines().filter { $0 == "paused" || $0 == "resumed" } == ["paused", "resumed", "paused"])
    }

    @Test("cancel aborts an in-flight request at once and ignores its late completion; cancel all aborts the rest")
    func cancel() throws {
        let harness = ManagerHarness(limit: 2)
        let ids = try harness.enqueue(3)
        harness.manager.cancel(ids[0])
        harness.settle()
        #expect(harness.transport.cancelled.map(\.jobID) == [ids[0]])
        #expect(harness.manager.job(ids[0])?.state == .cancelled)
        #expect(harness.transport.inFlightJobIDs == [ids[1], ids[2]])
        harness.manager.cancelAll()
        harness.settle()
        #expect(harness.transport.cancelled.map(\.jobID) == ids)
        #expect(harness.transport.inFlight.isEmpty)
        let lines = harness.recorder.lines()
        #expect(lines.filter { $0.hasPrefix("failed") || $0.hasPrefix("retrying") }.isEmpty)
        #expect(lines.suffix(3) == ["cancelled \(ids[1])", "cancelled \(ids[2])", "idle ok=0 failed=0 cancelled=3"])
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test("retryable failures are retried with exponential backoff on the injected clock")
    func backoff() throws {
        let transport = FakeTransport(replies: [.respond(status: 503), .fail(.transferFailed(reason: .idleTimedOut)), .respond(status: 200)])
        let harness = ManagerHarness(limit: 1, transport: transport, jitter: 0)
        let id = try harness.enqueue(1)[0]
        #expect(transport.calls.count == 1)
        #expect(harness.scheduler.pendingDeadlines == [Fixtures.at(500)])
        #expect(harness.manager.job(id)?.state == .queued)
        harness.advance(by: .milliseconds(499))
        #expect(transport.calls.count == 1)
        harness.advance(by: .milliseconds(1))
        #expect(transport.calls.count == 2)
        #expect(harness.scheduler.pendingDeadlines == [Fixtures.at(1500)])
        harness.advance(by: .milliseconds(1000))
        #expect(transport.calls.map(\.attempt) == [1, 2, 3])
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .succeeded)
        #expect(job.attempts == 3)
        #expect(job.automaticRetries == 2)
        #expect(harness.recorder.lines() == [
            "queued \(id)", "started \(id) total=\(job.progress.totalBytes!)", "retrying \(id) after 500ms",
            "started \(id) total=\(job.progress.totalBytes!)", "retrying \(id) after 1000ms",
            "started \(id) total=\(job.progress.totalBytes!)", "succeeded \(id)", "idle ok=1 failed=0 cancelled=0",
        ])
    }

    @Test("a job's own retry limit wins over the queue's policy, so a changed setting applies to jobs queued afterwards")
    func perJobRetryLimit() throws {
        let transport = FakeTransport(replies: [.respond(status: 503), .respond(status: 503), .respond(status: 200)])
        let harness = ManagerHarness(limit: 1, transport: transport, jitter: 0)
        var noRetries = Fixtures.spec(harness.directory.file("once.bin"))
        noRetries.maximumRetries = 0
        let id = try harness.manager.enqueue([noRetries])[0]
        harness.settle()
        #expect(transport.calls.count == 1)
        #expect(harness.manager.job(id)?.state == .failed)
        #expect(harness.scheduler.pendingDeadlines.isEmpty)
        let queueDefault = try harness.enqueue(1)[0]
        harness.advance(by: .milliseconds(500))
        #expect(harness.manager.job(queueDefault)?.state == .succeeded)
        #expect(harness.manager.job(queueDefault)?.automaticRetries == 1)
    }

    @Test("Retry-After is honoured, in seconds and as an HTTP-date")
    func retryAfter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: ManualScheduler().currentDate.addingTimeInterval(12))
        let transport = FakeTransport(replies: [
            .respond(status: 429, headers: [HeaderField(name: "Retry-After", value: "7")]),
            .respond(status: 503, headers: [HeaderField(name: "Retry-After", value: date)]),
            .respond(status: 200),
        ])
        let harness = ManagerHarness(limit: 1, transport: transport)
        let id = try harness.enqueue(1)[0]
        // The job's retry, and its endpoint's pause (EndpointPauseTests).
        #expect(harness.scheduler.pendingDeadlines == [Fixtures.at(7000), Fixtures.at(7000)])
        harness.advance(by: .seconds(7))
        #expect(transport.calls.count == 2)
        #expect(harness.scheduler.pendingDeadlines == [Fixtures.at(12_000), Fixtures.at(12_000)])
        harness.advance(by: .seconds(5))
        #expect(transport.calls.count == 3)
        #expect(harness.manager.job(id)?.state == .succeeded)
    }

    @Test("a 4xx is not retried; the response is kept on the job")
    func clientError() throws {
        let transport = FakeTransport(replies: [.respond(status: 403, headers: [HeaderField(name: "X-Reason", value: "quota")], body: Array("denied".utf8))])
        let harness = ManagerHarness(transport: transport)
        let id = try harness.enqueue(1)[0]
        let job = try #require(harness.manager.job(id))
        #expect(job.state == .failed)
        #expect(job.lastError == .serverRejected(status: 403, retryAfter: nil, message: "denied"))
        #expect(job.response?.bodyText == "denied")
        #expect(job.response?.value(forHeader: "x-reason") == "quota")
        #expect(transport.calls.count == 1)
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test("a missing file, a directory and a FIFO fail alone while the good files go on")
    func localFileErrors() async throws {
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let harness = ManagerHarness(limit: 2, transport: transport)
        let fifo = harness.directory.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let paths = [harness.directory.file("good1.bin"), harness.directory.path("missing.bin"), harness.directory.path,
                     fifo, harness.directory.file("good2.bin")]
        let ids = try harness.manager.enqueue(paths.map { Fixtures.spec($0) })
        let summary = await harness.manager.waitUntilIdle()
        #expect(summary.succeeded == 2)
        #expect(summary.failed == 3)
        #expect(transport.calls.map(\.jobID) == [ids[0], ids[4]])
        for index in 1...3 {
            let job = try #require(harness.manager.job(ids[index]))
            #expect(job.state == .failed)
            #expect(job.attempts == 1)
            #expect(job.lastError?.path == paths[index])
        }
    }

    @Test("a file changed since it was queued is flagged, not sent; the user's retry accepts it")
    func changedFile() async throws {
        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let harness = ManagerHarness(transport: transport)
        let path = harness.directory.file("doc.txt", bytes: 10)
        harness.manager.pause()
        let id = try harness.manager.enqueue(Fixtures.spec(path))
        harness.directory.file("doc.txt", bytes: 20)
        harness.manager.resume()
        harness.settle()
        var job = try #require(harness.manager.job(id))
        #expect(job.state == .failed)
        #expect(job.isFileChanged)
        #expect(transport.calls.isEmpty)
        harness.manager.retry(id)
        harness.settle()
        job = try #require(harness.manager.job(id))
        #expect(job.state == .succeeded)
        #expect(job.spec.files[0].size == 20)
    }

    @Test("progress is read 10 times a second per job: one event per tick with the latest count, none when nothing moved")
    func throttling() throws {
        let harness = ManagerHarness(limit: 2)
        let ids = try harness.enqueue(2, bytes: 100_000)
        for step in 1...100 {
            harness.scheduler.advance(by: .milliseconds(10))
            for id in ids { harness.transport.progress(job: id, bytesSent: Int64(step * 900)) }
            harness.settle()
        }
        harness.advance(by: .milliseconds(100))
        let progress = harness.recorder.all.compactMap { event -> UploadJob? in
            if case let .progressed(job) = event { return job }
            return nil
        }
        for id in ids {
            // 100 counts over 1 s, then 100 ms more: the ticks at 100, 200, ... 1000 ms each read
            // the count before them (the clock moves first in each step), the one at 1100 ms the last.
            let events = progress.filter { $0.id == id }
            #expect(events.count == 11)
            let expected: [Int64] = (1...10).map { (tick: Int) -> Int64 in Int64((tick * 10 - 1) * 900) } + [90_000]
            #expect(events.map(\.progress.bytesSent) == expected)
            // 90,000 bytes since the start, 1.1 s ago.
            #expect(abs((events.last?.progress.bytesPerSecond ?? 0) - 90_000 / 1.1) < 1)
        }
    }

    @Test("two subscriptions see the same events in the same order")
    func twoSubscribers() throws {
        let harness = ManagerHarness(transport: FakeTransport { _, _ in .respond(status: 200) })
        let second = EventRecorder(harness.manager)
        try harness.enqueue(3)
        harness.settle()
        let lines = second.lines(includingProgress: true)
        #expect(lines == harness.recorder.lines(includingProgress: true))
        #expect(lines.count >= 8)
        #expect(lines.last?.hasPrefix("idle") == true)
    }

    @Test("remove aborts and forgets a job; clear removes the succeeded ones (cancelled and failed ones wait for the user)")
    func removeAndClear() throws {
        let harness = ManagerHarness(limit: 2)
        let ids = try harness.enqueue(4)
        harness.manager.remove(ids[0])
        harness.settle()
        #expect(harness.transport.cancelled.map(\.jobID) == [ids[0]])
        #expect(harness.manager.job(ids[0]) == nil)
        harness.transport.respond(job: ids[1], status: 200)
        harness.settle()
        harness.manager.cancel(ids[2])
        harness.transport.respond(job: ids[3], status: 400)
        harness.settle()
        harness.manager.clearSucceeded()
        harness.settle()
        #expect(harness.manager.snapshot().jobs.map(\.id) == [ids[2], ids[3]])
    }

    @Test("restore after a crash: interrupted jobs go again, failed ones wait, changed files are flagged")
    func journalRestore() async throws {
        let directory = TemporaryDirectory()
        let journalPath = directory.path("journal.sqlite")
        let before = ManagerHarness(limit: 1, journal: try UploadJournal(path: journalPath))
        let ids = try before.enqueue(4)
        before.transport.respond(job: ids[0], status: 404)
        before.settle()
        before.transport.respond(job: ids[1], status: 200)
        before.settle()
        #expect(before.transport.inFlightJobIDs == [ids[2]])
        before.transport.progress(job: ids[2], bytesSent: 50)
        before.manager.flushJournal()
        let changedPath = try #require(before.manager.job(ids[3])?.spec.files.first?.path)
        before.directory.file((changedPath as NSString).lastPathComponent, bytes: 999)
        // The first process dies here: no stop, no close.

        let transport = FakeTransport { _, _ in .respond(status: 200) }
        let after = ManagerHarness(limit: 1, transport: transport, journal: try UploadJournal(path: journalPath))
        let restored = try after.manager.restore()
        #expect(restored.map(\.id) == [ids[0], ids[2], ids[3]])
        after.settle()
        let summary = await after.manager.waitUntilIdle()
        #expect(summary.succeeded == 1)
        #expect(summary.failed == 2)
        #expect(transport.calls.map(\.jobID) == [ids[2]])
        #expect(after.manager.job(ids[2])?.attempts == 2)
        #expect(after.manager.job(ids[0])?.lastError == .serverRejected(status: 404, retryAfter: nil))
        #expect(after.manager.job(ids[3])?.isFileChanged == true)
        after.manager.flushJournal()
        let rows = try UploadJournal(path: journalPath).allJobs()
        #expect(rows.map(\.state) == [.failed, .failed], "the succeeded job's row deleted")
        withExtendedLifetime(before) {}
    }

    @Test("stop aborts in-flight requests and leaves their jobs queued in the journal")
    func stop() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("journal.sqlite"))
        let harness = ManagerHarness(limit: 2, journal: journal)
        let ids = try harness.enqueue(3)
        harness.manager.stop()
        harness.manager.flushJournal()
        harness.settle()
        #expect(harness.transport.cancelled.map(\.jobID) == [ids[0], ids[1]])
        #expect(try journal.allJobs().map(\.state) == [.queued, .queued, .queued])
        #expect(try journal.allJobs().map(\.attempts) == [1, 1, 0])
        #expect(harness.manager.snapshot().isPaused)
    }

    @Test("with the real Dispatch scheduler, a retry fires after its real backoff")
    func realScheduler() async throws {
        let directory = TemporaryDirectory()
        let transport = FakeTransport(replies: [.respond(status: 500)], otherwise: .respond(status: 200))
        let manager = UploadManager(
            configuration: .init(retryPolicy: RetryPolicy(baseDelay: .milliseconds(40))),
            transport: transport
        )
        let clock = ContinuousClock()
        let start = clock.now
        let id = try manager.enqueue(Fixtures.spec(directory.file("a.bin")))
        let summary = await manager.waitUntilIdle()
        #expect(clock.now - start >= .milliseconds(20))
        #expect(summary.succeeded == 1)
        #expect(manager.job(id)?.attempts == 2)
    }
}
