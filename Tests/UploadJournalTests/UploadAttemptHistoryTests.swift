import Foundation
import Multipart
import SQLiteDatabase
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// Each ended attempt is recorded on its job, with how it ended, and survives the journal.
@Suite("Attempt history")
struct UploadAttemptHistoryTests {
    private static let id = UploadJobID(1)

    private static func machine(retries: Int = 3) -> UploadQueueStateMachine {
        UploadQueueStateMachine(
            configuration: .init(retryPolicy: RetryPolicy(maximumRetries: retries, baseDelay: .seconds(1))),
            random: FixedRandom(fraction: 0)
        )
    }

    @Test("a 503, a dropped connection, then a 201: three attempts with status, error, times and retry delays")
    func retriedJob() {
        var machine = Self.machine()
        _ = machine.enqueue([Fixtures.job(1)])
        _ = machine.transferBegan(Self.id, attempt: 1, totalBytes: 4000, now: Fixtures.at(0), date: Fixtures.date(0))
        _ = machine.transportProgressed(Self.id, attempt: 1, bytesSent: 4000, now: Fixtures.at(200))
        _ = machine.transportCompleted(Self.id, attempt: 1, response: UploadResponse(status: 503), retryAfter: nil,
                                       now: Fixtures.at(250))
        _ = machine.timerFired(.retry(Self.id), now: Fixtures.at(750))
        _ = machine.transferBegan(Self.id, attempt: 2, totalBytes: 4000, now: Fixtures.at(760), date: Fixtures.date(760))
        _ = machine.transportProgressed(Self.id, attempt: 2, bytesSent: 1500, now: Fixtures.at(900))
        let lost = UploadError.transferFailed(reason: .connectionLost(message: "reset by peer"))
        _ = machine.transportFailed(Self.id, attempt: 2, error: lost, now: Fixtures.at(1000))
        _ = machine.timerFired(.retry(Self.id), now: Fixtures.at(2000))
        _ = machine.transferBegan(Self.id, attempt: 3, totalBytes: 4000, now: Fixtures.at(2000), date: Fixtures.date(2000))
        _ = machine.transportCompleted(Self.id, attempt: 3, response: UploadResponse(status: 201), retryAfter: nil,
                                       now: Fixtures.at(2300))

        let history = machine.job(Self.id)!.attemptHistory
        #expect(history == [
            UploadAttempt(number: 1, outcome: .failed, startedAt: Fixtures.date(0), duration: .milliseconds(250),
                          bytesSent: 4000, totalBytes: 4000, status: 503,
                          error: UploadError.serverRejected(status: 503, retryAfter: nil).description,
                          retryDelay: .milliseconds(500)),
            UploadAttempt(number: 2, outcome: .failed, startedAt: Fixtures.date(760), duration: .milliseconds(240),
                          bytesSent: 1500, totalBytes: 4000, error: lost.description, retryDelay: .seconds(1)),
            UploadAttempt(number: 3, outcome: .succeeded, startedAt: Fixtures.date(2000), duration: .milliseconds(300),
                          bytesSent: 4000, totalBytes: 4000, status: 201),
        ])
    }

    @Test("a body that cannot be built is an attempt that never started: no time, no bytes, the local error")
    func localFailure() {
        var machine = Self.machine()
        _ = machine.enqueue([Fixtures.job(1)])
        let missing = UploadError.multipartFailed(.fileRejected(path: "/data/gone.bin", reason: .doesNotExist))
        _ = machine.transportFailed(Self.id, attempt: 1, error: missing, now: Fixtures.at(5))
        let job = machine.job(Self.id)!
        #expect(job.state == .failed)
        #expect(job.attemptHistory == [UploadAttempt(number: 1, outcome: .failed, error: missing.description)])
    }

    @Test("cancel and stop mid-flight record cancelled and interrupted attempts with the bytes sent")
    func cancelAndStop() {
        var machine = Self.machine()
        _ = machine.enqueue([Fixtures.job(1), Fixtures.job(2)])
        for id in [Self.id, UploadJobID(2)] {
            _ = machine.transferBegan(id, attempt: 1, totalBytes: 9000, now: Fixtures.at(0), date: Fixtures.date(0))
            _ = machine.transportProgressed(id, attempt: 1, bytesSent: 3000, now: Fixtures.at(500))
        }
        _ = machine.cancel(Self.id)
        _ = machine.stop()
        #expect(machine.job(Self.id)!.attemptHistory == [
            UploadAttempt(number: 1, outcome: .cancelled, startedAt: Fixtures.date(0), bytesSent: 3000, totalBytes: 9000),
        ])
        let stopped = machine.job(UploadJobID(2))!
        #expect(stopped.state == .queued)
        #expect(stopped.attemptHistory == [
            UploadAttempt(number: 1, outcome: .interrupted, startedAt: Fixtures.date(0), bytesSent: 3000, totalBytes: 9000),
        ])
    }

    @Test("a job a killed run left uploading is restored with its last attempt marked interrupted, once")
    func restoreInterrupted() {
        var killed = Fixtures.job(1, state: .uploading)
        killed.attempts = 2
        killed.attemptHistory = [UploadAttempt(number: 1, outcome: .failed, status: 500, error: "HTTP 500")]
        var stopped = Fixtures.job(2, state: .queued)
        stopped.attempts = 1
        stopped.attemptHistory = [UploadAttempt(number: 1, outcome: .interrupted)]
        var machine = Self.machine()
        _ = machine.pause()
        let actions = machine.restore([killed, stopped])
        #expect(machine.job(Self.id)!.attemptHistory.map(\.outcome) == [.failed, .interrupted])
        #expect(machine.job(Self.id)!.attemptHistory.last?.number == 2)
        #expect(machine.job(UploadJobID(2))!.attemptHistory == stopped.attemptHistory)
        #expect(actions.contains { action in
            if case let .persist(.update(job, _)) = action { return job.id == Self.id && job.attemptHistory.count == 2 }
            return false
        }, "the interrupted attempt must be written back")
    }

    @Test("only the last 20 attempts are kept")
    func cappedHistory() {
        var machine = Self.machine(retries: 30)
        _ = machine.enqueue([Fixtures.job(1)])
        var now: Int64 = 0
        for attempt in 1...25 {
            _ = machine.transportCompleted(Self.id, attempt: attempt, response: UploadResponse(status: 502), retryAfter: nil,
                                           now: Fixtures.at(now))
            now += 100_000
            _ = machine.timerFired(.retry(Self.id), now: Fixtures.at(now))
        }
        let history = machine.job(Self.id)!.attemptHistory
        #expect(history.count == UploadJob.maximumAttemptHistory)
        #expect(history.map(\.number) == Array(6...25))
    }

    @Test("the journal keeps the history; a journal from before the history existed is upgraded")
    func journalRoundTrip() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("j.sqlite")
        try Self.writeFirstVersionJournal(at: path, spec: Fixtures.spec(named: "old.bin"))
        let journal = try UploadJournal(path: path)
        let old = try journal.allJobs()
        #expect(old.map(\.spec) == [Fixtures.spec(named: "old.bin")])
        #expect(old.map(\.attemptHistory) == [[]])
        var job = try journal.insert([Fixtures.spec(named: "a.bin")])[0]
        job.state = .failed
        job.attempts = 2
        job.attemptHistory = [
            UploadAttempt(number: 1, outcome: .interrupted, startedAt: Fixtures.date(0), bytesSent: 10, totalBytes: 99),
            UploadAttempt(number: 2, outcome: .failed, startedAt: Fixtures.date(9000), duration: .milliseconds(1234),
                          bytesSent: 99, totalBytes: 99, status: 413, error: "the server refused the upload: HTTP 413",
                          retryDelay: nil),
        ]
        try journal.apply([.update(job, includingSpec: false)])
        try journal.close()
        let loaded = try UploadJournal(path: path).allJobs()
        #expect(loaded.count == 2)
        #expect(loaded.first { $0.id == job.id }?.attemptHistory == job.attemptHistory)
    }

    /// A journal as the first version wrote it: the `v1` schema, one queued row.
    private static func writeFirstVersionJournal(at path: String, spec: UploadJobSpec) throws {
        let database = try SQLiteConnection(path: path)
        let json = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        try database.transaction { db in
            try db.execute(JournalMigrationTests.firstVersionSchema)
            try db.prepare("INSERT INTO upload_job (spec, state, attempts, created_at, updated_at) VALUES (?, 'queued', 1, 0, 0)")
                .execute([.text(json)])
        }
        try database.close()
    }
}
