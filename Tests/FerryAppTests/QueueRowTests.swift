import FerryApp
import Foundation
import TerminalUI
import Testing
import UploadModel
import UploadEngine

@Suite("Queue rows and details")
struct QueueRowTests {
    static func spec(_ name: String, size: Int64) -> UploadJobSpec {
        UploadJobSpec(url: "http://h/u", files: [QueuedFile(path: "/d/" + name, size: size, modificationTimeNanoseconds: 0)])
    }

    static func queueApp(_ jobs: [UploadJob], size: Size = Size(width: 80, height: 24)) -> AppHarness {
        var app = AppHarness(directories: ["/data": []], size: size)
        for job in jobs {
            app.engine.adopt(job)
            app.send(.uploadEventReceived(.queued(job)))
        }
        app.type("3")
        return app
    }

    static func trimmed(_ lines: [String]) -> [String] {
        lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The details pane of `job`, alone in the queue, opened with Enter: its lines, trimmed.
    static func details(of job: UploadJob, size: Size) -> [String] {
        var app = queueApp([job], size: size)
        app.press(.enter)
        return trimmed(app.screen(width: size.width, height: size.height).lines())
    }

    @Test("the Size column shows the file's size whatever the request adds; details show the request's size")
    func sizeColumnIsTheFileSize() {
        let started = UploadJob(id: 1, spec: Self.spec("two.txt", size: 2), state: .uploading,
                                progress: UploadProgress(bytesSent: 100, totalBytes: 186), attempts: 1)
        let done = UploadJob(id: 2, spec: Self.spec("three.txt", size: 3), state: .succeeded,
                             progress: UploadProgress(bytesSent: 187, totalBytes: 187), attempts: 1)
        var app = Self.queueApp([started, done])
        let lines = app.screen(width: 80, height: 24).lines()
        #expect(lines[2].contains(" 2 B "), "\(lines[2])")
        #expect(!lines[2].contains("186 B"), "\(lines[2])")
        #expect(lines[3].contains(" 3 B "), "\(lines[3])")
        app.press(.enter)
        let details = Self.trimmed(app.screen(width: 80, height: 24).lines())
        #expect(details.contains("Request: POST http://h/u · body 186 B"), "\(details)")
    }

    static func state(size: Size = Size(width: 80, height: 24)) -> AppState {
        AppState(directory: "/data", settings: FormSettings(), homeDirectory: "/", size: size,
                 timeZone: TimeZone(identifier: "UTC")!)
    }

    @Test("a row keeps whole a job waiting for its first attempt, in flight, waiting for a retry, failed or cancelled")
    func rowsKeepUnfinishedJobsWhole() {
        let spec = Self.spec("a.txt", size: 1)
        let refused = UploadError.serverRejected(status: 503, retryAfter: nil)
        let jobs = [
            UploadJob(id: 1, spec: spec),
            UploadJob(id: 2, spec: spec, state: .uploading, progress: UploadProgress(bytesSent: 5, totalBytes: 10), attempts: 1),
            UploadJob(id: 3, spec: spec, state: .queued, attempts: 1, automaticRetries: 1, lastError: refused,
                      attemptHistory: [UploadAttempt(number: 1, outcome: .failed, status: 503)]),
            UploadJob(id: 4, spec: spec, state: .failed, attempts: 2, lastError: refused, response: UploadResponse(status: 503),
                      attemptHistory: [UploadAttempt(number: 2, outcome: .failed, status: 503)]),
            UploadJob(id: 5, spec: spec, state: .cancelled, attempts: 1),
        ]
        for job in jobs { #expect(QueueRow(job).job == job) }
    }

    @Test("a row takes 40 bytes, where a whole job takes more than three times that")
    func rowsAreSmall() {
        #expect(MemoryLayout<QueueRow>.stride == 40)
        #expect(MemoryLayout<UploadJob>.stride > 120)
    }

    @Test("a succeeded job's row keeps no response or attempt history; opening its details loads them")
    func succeededRowsLoadTheirDetails() {
        let done = UploadJob(
            id: 1, spec: Self.spec("a.txt", size: 1), state: .succeeded, progress: UploadProgress(bytesSent: 180, totalBytes: 180),
            attempts: 2, automaticRetries: 1, response: UploadResponse(status: 201, body: Array("stored as 7".utf8)),
            attemptHistory: [UploadAttempt(number: 1, outcome: .failed, status: 503),
                             UploadAttempt(number: 2, outcome: .succeeded, status: 201)])
        var state = Self.state()
        _ = state.update(.uploadEventReceived(.succeeded(done)))
        let row = state.queue.rows[1]
        #expect(row?.job.state == .succeeded)
        #expect(row?.job.attempts == 2)
        #expect(row?.job.response == nil)
        #expect(row?.job.attemptHistory == [])
        #expect(state.queue.summary.succeeded == 1)

        _ = state.update(.keyPressed(.char("3")))
        #expect(state.update(.keyPressed(.key(.enter))) == [.loadJobDetails(1)])
        var details = Self.trimmed(AppView.render(state, size: state.size).lines())
        #expect(details.contains("(reading the attempts and the response…)"), "\(details)")
        #expect(!details.contains("Response: 201"))

        _ = state.update(.jobDetailsLoaded(done))
        details = Self.trimmed(AppView.render(state, size: state.size).lines())
        #expect(details.contains("Attempts: 2, 1 of them an automatic retry"), "\(details)")
        #expect(details.contains("Request: POST http://h/u · body 180 B"), "\(details)")
        #expect(details.contains("Response: 201"), "\(details)")
        #expect(details.contains("stored as 7"), "\(details)")
        #expect(!details.contains("(reading the attempts and the response…)"))
    }

    @Test("open details follow the job's events whole; an answer that comes after they closed is dropped")
    func detailsFollowEventsAndDropLateAnswers() {
        let spec = Self.spec("a.txt", size: 1)
        let uploading = UploadJob(id: 1, spec: spec, state: .uploading, progress: UploadProgress(bytesSent: 0, totalBytes: 180),
                                  attempts: 1)
        let done = UploadJob(id: 1, spec: spec, state: .succeeded, progress: UploadProgress(bytesSent: 180, totalBytes: 180),
                             attempts: 1, response: UploadResponse(status: 200, body: Array("ok".utf8)),
                             attemptHistory: [UploadAttempt(number: 1, outcome: .succeeded, status: 200)])
        var state = Self.state()
        _ = state.update(.uploadEventReceived(.started(uploading)))
        _ = state.update(.keyPressed(.char("3")))
        #expect(state.update(.keyPressed(.key(.enter))).isEmpty, "a job in flight is kept whole: nothing to load")
        _ = state.update(.uploadEventReceived(.succeeded(done)))
        #expect(state.queue.detailsJob == done, "the open details take the event's whole job")
        #expect(!state.queue.isLoadingDetails)
        #expect(state.queue.rows[1]?.job.response == nil, "the row still drops it")

        _ = state.update(.keyPressed(.key(.escape)))
        #expect(state.update(.keyPressed(.key(.enter))) == [.loadJobDetails(1)])
        _ = state.update(.keyPressed(.key(.escape)))
        _ = state.update(.jobDetailsLoaded(done))
        #expect(state.queue.detailsJob == nil, "a late answer does not reopen the details")
    }

    @Test("details that could not be read say why instead of reading on; a late answer after they closed is dropped")
    func detailsThatCannotBeRead() {
        let done = UploadJob(id: 1, spec: Self.spec("a.txt", size: 100), state: .succeeded,
                             progress: UploadProgress(bytesSent: 180, totalBytes: 180), attempts: 1,
                             response: UploadResponse(status: 200, body: Array("ok".utf8)),
                             attemptHistory: [UploadAttempt(number: 1, outcome: .succeeded, status: 200)])
        var state = Self.state()
        _ = state.update(.uploadEventReceived(.succeeded(done)))
        _ = state.update(.keyPressed(.char("3")))
        #expect(state.update(.keyPressed(.key(.enter))) == [.loadJobDetails(1)])
        _ = state.update(.jobDetailsUnavailable(1, reason: "disk I/O error"))
        let details = Self.trimmed(AppView.render(state, size: state.size).lines())
        #expect(!details.contains("(reading the attempts and the response…)"), "\(details)")
        #expect(details.contains("Attempts: 1"), "\(details)")
        #expect(details.contains("The attempts and the response could not be read: disk I/O error"), "\(details)")
        #expect(!state.queue.isLoadingDetails)

        _ = state.update(.keyPressed(.key(.escape)))
        #expect(state.update(.keyPressed(.key(.enter))) == [.loadJobDetails(1)])
        #expect(state.queue.detailsProblem == nil, "opened again, the details are read again")
        _ = state.update(.keyPressed(.key(.escape)))
        _ = state.update(.jobDetailsUnavailable(1, reason: "late"))
        #expect(state.queue.detailsJob == nil)
        #expect(state.queue.detailsProblem == nil, "a late answer is dropped")
    }

    @Test("jobs removed together go in one pass: the others keep their order, counts and cursor follow, open details close")
    func jobsRemovedTogether() {
        var state = Self.state()
        for id in 1...6 {
            let kind: UploadJobState = id % 2 == 0 ? .succeeded : .queued
            let job = UploadJob(id: UploadJobID(Int64(id)), spec: Self.spec("f\(id).txt", size: 10), state: kind, attempts: 1)
            _ = state.update(.uploadEventReceived(kind == .succeeded ? .succeeded(job) : .queued(job)))
        }
        _ = state.update(.keyPressed(.char("3")))
        for _ in 0..<5 { _ = state.update(.keyPressed(.key(.down))) }
        _ = state.update(.keyPressed(.key(.enter)))
        #expect(state.queue.detailsJobID == 6)
        #expect(state.queue.summary.succeeded == 3)

        _ = state.update(.jobsRemoved([2, 4, 6, 9]))
        #expect(state.queue.order == [1, 3, 5])
        #expect(state.queue.rows.count == 3)
        #expect(state.queue.summary.succeeded == 0)
        #expect(state.queue.summary.queued == 3)
        #expect(state.queue.detailsJobID == nil, "the open details were of a removed job")
        #expect(state.queue.scroll.selection == 2, "the cursor stays on the list")

        _ = state.update(.uploadEventReceived(.removed(3)))
        #expect(state.queue.order == [1, 5])
    }

    @Test("details count attempts in words")
    func attemptsInWords() {
        let once = UploadJob(id: 1, spec: Self.spec("a", size: 1), state: .succeeded, attempts: 1)
        var app = Self.queueApp([once])
        app.press(.enter)
        var details = Self.trimmed(app.screen(width: 80, height: 24).lines())
        #expect(details.contains("Attempts: 1"), "\(details)")
        #expect(!details.joined().contains("automatic retries 0"))
        let thrice = UploadJob(id: 2, spec: Self.spec("b", size: 1), state: .succeeded, attempts: 3, automaticRetries: 2)
        let twice = UploadJob(id: 3, spec: Self.spec("c", size: 1), state: .succeeded, attempts: 2, automaticRetries: 1)
        app = Self.queueApp([thrice, twice])
        app.press(.enter)
        details = Self.trimmed(app.screen(width: 80, height: 24).lines())
        #expect(details.contains("Attempts: 3, 2 of them automatic retries"), "\(details)")
        app.press(.escape)
        app.type("j")
        app.press(.enter)
        details = Self.trimmed(app.screen(width: 80, height: 24).lines())
        #expect(details.contains("Attempts: 2, 1 of them an automatic retry"), "\(details)")
    }

    @Test("details name the proxy a job goes through, without its credentials")
    func detailsNameTheProxy() {
        var spec = Self.spec("a.txt", size: 1)
        spec.connection.httpProxy = "http://ann:pw@proxy.example:3128"
        var app = Self.queueApp([UploadJob(id: 1, spec: spec)])
        app.press(.enter)
        let details = Self.trimmed(app.screen(width: 80, height: 24).lines())
        #expect(details.contains("Request: POST http://h/u via proxy proxy.example:3128"), "\(details)")
        #expect(!details.joined().contains("pw@"))
    }

    @Test("a redirect that was not followed says where the endpoint went, not the 3xx page's first line")
    func redirectNotFollowed() {
        let moved = UploadJob(id: 1, spec: Self.spec("a.txt", size: 1), state: .failed, attempts: 1,
                              lastError: .redirectRefused(status: 308, reason: .moved(server: "h", location: "http://h/new")),
                              response: UploadResponse(status: 308, body: Array("<html>moved</html>".utf8)))
        let app = Self.queueApp([moved], size: Size(width: 120, height: 24))
        let row = app.screen(width: 120, height: 24).lines()[2]
        #expect(row.contains("the server at h moved this endpoint to http://h/n"), "\(row)")
        #expect(!row.contains("<html>"), "\(row)")
    }
}

@Suite("Queue rows over time")
struct QueueRowTimeTests {
    static func at(_ seconds: Double) -> SchedulerInstant { SchedulerInstant(nanoseconds: Int64(seconds * 1e9)) }

    /// A job backing off until 10 s, as the queue reports it: its attempt sent all 1,100 bytes
    /// and the server answered 503, come back in 4.5 s.
    static func backingOffJob() -> UploadJob {
        var machine = UploadQueueStateMachine()
        let id = UploadJobID(1)
        _ = machine.enqueue([UploadJob(id: id, spec: QueueRowTests.spec("flaky.bin", size: 1000))])
        _ = machine.transferBegan(id, attempt: 1, totalBytes: 1100, now: at(5), date: Date())
        _ = machine.transportProgressed(id, attempt: 1, bytesSent: 1100, now: at(5.4))
        _ = machine.transportCompleted(id, attempt: 1, response: UploadResponse(status: 503),
                                       retryAfter: .milliseconds(4500), now: at(5.5))
        return machine.job(id)!
    }

    @Test("a job waiting for an automatic retry counts down instead of showing a full bar")
    func retryWaitCountsDown() {
        let waiting = Self.backingOffJob()
        #expect(waiting.state == .queued)
        #expect(waiting.retryAt == Self.at(10))
        var app = QueueRowTests.queueApp([])
        app.send(.clockTicked(Self.at(5.5)))
        app.send(.uploadEventReceived(.retrying(waiting, after: .milliseconds(4500))))
        var row = app.screen(width: 80, height: 24).lines()[2]
        #expect(row.contains("retry in 5s"), "\(row)")
        #expect(!row.contains("100%") && !row.contains("█"), "\(row)")
        app.send(.clockTicked(Self.at(6.2)))
        row = app.screen(width: 80, height: 24).lines()[2]
        #expect(row.contains("retry in 4s"), "\(row)")
    }

    @Test("when no byte moves, the speed decays to 0 and the row says for how long it has stalled")
    func stalledTransferSaysSo() {
        let job = { (sent: Int64) in
            UploadJob(id: 1, spec: QueueRowTests.spec("slow.bin", size: 1_000_000), state: .uploading,
                      progress: UploadProgress(bytesSent: sent, totalBytes: 1_000_200, bytesPerSecond: 2048,
                                               estimatedTimeRemaining: .seconds(400)),
                      attempts: 1)
        }
        var app = QueueRowTests.queueApp([])
        app.send(.clockTicked(Self.at(100)))
        app.send(.uploadEventReceived(.progressed(job(20_000))))
        app.send(.clockTicked(Self.at(100.5)))
        var row = app.screen(width: 80, height: 24).lines()[2]
        #expect(row.contains("2.0 KiB/s"), "\(row)")
        #expect(!row.contains("stalled"), "\(row)")
        app.send(.clockTicked(Self.at(102)))
        row = app.screen(width: 80, height: 24).lines()[2]
        #expect(row.contains("1.0 KiB/s"), "half way to the stall threshold, half the speed: \(row)")
        app.send(.clockTicked(Self.at(112.2)))
        row = app.screen(width: 80, height: 24).lines()[2]
        #expect(row.contains(" 0 B/s"), "\(row)")
        #expect(row.contains("stalled 12s"), "\(row)")
        app.send(.uploadEventReceived(.progressed(job(30_000))))
        row = app.screen(width: 80, height: 24).lines()[2]
        #expect(!row.contains("stalled"), "\(row)")
        #expect(row.contains("2.0 KiB/s"), "\(row)")
    }
}
