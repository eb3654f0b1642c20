import Multipart
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

/// Table tests of the queue's pure logic: each scenario is a list of events, each with the
/// actions it must produce (in the short forms of `ActionDescription`). No I/O, no clock.
@Suite("UploadQueueStateMachine")
struct UploadQueueStateMachineTests {
    enum Step: Sendable {
        case enqueue([Int64])
        case restore([UploadJob], changed: [Int64: String] = [:])
        /// Restored as the interface restores: unfinished jobs held.
        case restoreHolding([UploadJob])
        case releaseHeld
        case began(Int64, attempt: Int = 1, total: Int64 = 1000, at: Int64 = 0)
        case progress(Int64, attempt: Int = 1, bytes: Int64, at: Int64)
        /// The transport was let write the body's last byte.
        case sentWholeBody(Int64, attempt: Int = 1)
        case respond(Int64, attempt: Int = 1, status: Int, retryAfterMs: Int64? = nil, at: Int64 = 0)
        case fail(Int64, attempt: Int = 1, UploadError, at: Int64 = 0)
        case timer(UploadQueueStateMachine.TimerKey, at: Int64)
        case pause, resume, stop, cancelAll, retryFailedAndCancelled, clearSucceeded
        case limit(Int)
        case cancel(Int64)
        case retry(Int64, refreshed: Bool = false)
        case remove(Int64)
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        var limit = 4
        var policy = RetryPolicy()
        var jitter = 0.0
        let steps: [(Step, [String])]
        var testDescription: String { name }
    }

    static let connectionLost = UploadError.transferFailed(reason: .connectionLost(message: "reset"))
    static let missingFile = UploadError.multipartFailed(.fileRejected(path: "/x/missing.bin", reason: .doesNotExist))

    static let scenarios: [Scenario] = [
        Scenario(name: "enqueue starts jobs up to the limit, a finished job frees a slot", limit: 2, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3",
                                   "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.began(1), ["started 1 total=1000"]),
            (.respond(1, status: 201), ["persist 1 succeeded", "succeeded 1", "persist 3 uploading", "start 3#1"]),
            (.respond(2, status: 200), ["persist 2 succeeded", "succeeded 2"]),
            (.respond(3, status: 204), ["persist 3 succeeded", "succeeded 3", "idle ok=3 failed=0 cancelled=0"]),
        ]),
        Scenario(name: "pause starts nothing new, in-flight jobs go on; resume starts; each says so once", limit: 1, steps: [
            (.enqueue([1]), ["queued 1", "persist 1 uploading", "start 1#1"]),
            (.pause, ["paused"]),
            (.pause, []),
            (.enqueue([2, 3]), ["queued 2", "queued 3"]),
            (.respond(1, status: 200), ["persist 1 succeeded", "succeeded 1"]),
            (.resume, ["resumed", "persist 2 uploading", "start 2#1"]),
            (.resume, []),
        ]),
        Scenario(name: "raising the limit starts more at once; lowering it aborts nothing", limit: 1, steps: [
            (.enqueue([1, 2, 3, 4]), ["queued 1", "queued 2", "queued 3", "queued 4", "persist 1 uploading", "start 1#1"]),
            (.limit(3), ["persist 2 uploading", "start 2#1", "persist 3 uploading", "start 3#1"]),
            (.limit(1), []),
            (.respond(1, status: 200), ["persist 1 succeeded", "succeeded 1"]),
            (.respond(2, status: 200), ["persist 2 succeeded", "succeeded 2"]),
            (.respond(3, status: 200), ["persist 3 succeeded", "succeeded 3", "persist 4 uploading", "start 4#1"]),
        ]),
        Scenario(name: "503 is retried with exponential backoff until the retries run out", limit: 1, jitter: 0, steps: [
            (.enqueue([1, 2]), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 503, at: 0),
             ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms", "persist 2 uploading", "start 2#1"]),
            (.respond(2, status: 200, at: 100), ["persist 2 succeeded", "succeeded 2"]),
            (.timer(.retry(1), at: 500), ["persist 1 uploading", "start 1#2"]),
            (.respond(1, attempt: 2, status: 500, at: 600), ["persist 1 queued", "timer retry 1 at 1600ms", "retrying 1 after 1000ms"]),
            (.timer(.retry(1), at: 1600), ["persist 1 uploading", "start 1#3"]),
            (.respond(1, attempt: 3, status: 502, at: 1600), ["persist 1 queued", "timer retry 1 at 3600ms", "retrying 1 after 2000ms"]),
            (.timer(.retry(1), at: 3600), ["persist 1 uploading", "start 1#4"]),
            (.respond(1, attempt: 4, status: 503, at: 3600), ["persist 1 failed", "failed 1 status 503", "idle ok=1 failed=1 cancelled=0"]),
        ]),
        Scenario(name: "jitter spreads each backoff between half and all of it; the cap holds",
                 policy: RetryPolicy(maximumRetries: 10, baseDelay: .seconds(1), maximumDelay: .seconds(4)), jitter: 0.5, steps: [
            (.enqueue([1]), ["queued 1", "persist 1 uploading", "start 1#1"]),
            (.fail(1, connectionLost, at: 0), ["persist 1 queued", "timer retry 1 at 750ms", "retrying 1 after 750ms"]),
            (.timer(.retry(1), at: 750), ["persist 1 uploading", "start 1#2"]),
            (.fail(1, attempt: 2, .transferFailed(reason: .idleTimedOut), at: 1000),
             ["persist 1 queued", "timer retry 1 at 2500ms", "retrying 1 after 1500ms"]),
            (.timer(.retry(1), at: 2500), ["persist 1 uploading", "start 1#3"]),
            (.fail(1, attempt: 3, .transferFailed(reason: .connectTimedOut), at: 3000),
             ["persist 1 queued", "timer retry 1 at 6000ms", "retrying 1 after 3000ms"]),
            (.timer(.retry(1), at: 6000), ["persist 1 uploading", "start 1#4"]),
            (.fail(1, attempt: 4, connectionLost, at: 6000), ["persist 1 queued", "timer retry 1 at 9000ms", "retrying 1 after 3000ms"]),
        ]),
        Scenario(name: "Retry-After is honoured as a lower bound (and pauses the endpoint, EndpointPauseTests)", jitter: 0, steps: [
            (.enqueue([1]), ["queued 1", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 429, retryAfterMs: 7000, at: 1000), ["timer wait http://example.test at 8000ms",
                                                                      "paused http://example.test 429 until 8000ms",
                                                                      "persist 1 queued", "timer retry 1 at 8000ms", "retrying 1 after 7000ms"]),
            (.timer(.retry(1), at: 8000), []),
            (.timer(.endpointWait(UploadEndpoint(url: "http://example.test")!), at: 8000),
             ["resumed http://example.test", "persist 1 uploading", "start 1#2"]),
            (.respond(1, attempt: 2, status: 503, retryAfterMs: 0, at: 8000), ["persist 1 queued", "timer retry 1 at 9000ms", "retrying 1 after 1000ms"]),
        ]),
        Scenario(name: "a Retry-After beyond the maximum parks the job for the user", steps: [
            (.enqueue([1]), ["queued 1", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 503, retryAfterMs: 3_600_000), ["persist 1 failed", "failed 1 status 503", "idle ok=0 failed=1 cancelled=0"]),
        ]),
        Scenario(name: "408 is retried; 400, 403, 404 and 413 fail at once while the queue goes on", limit: 1, steps: [
            (.enqueue([1, 2, 3, 4, 5]), ["queued 1", "queued 2", "queued 3", "queued 4", "queued 5", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 408), ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms", "persist 2 uploading", "start 2#1"]),
            (.respond(2, status: 400), ["persist 2 failed", "failed 2 status 400", "persist 3 uploading", "start 3#1"]),
            (.respond(3, status: 403), ["persist 3 failed", "failed 3 status 403", "persist 4 uploading", "start 4#1"]),
            (.respond(4, status: 404), ["persist 4 failed", "failed 4 status 404", "persist 5 uploading", "start 5#1"]),
            (.respond(5, status: 413), ["persist 5 failed", "failed 5 status 413"]),
        ]),
        Scenario(name: "a local file error fails its job alone; the others go on", limit: 2, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.fail(1, missingFile), ["persist 1 failed", "failed 1 multipart", "persist 3 uploading", "start 3#1"]),
            (.fail(3, .fileChangedSinceQueued(path: "/x/3")), ["persist 3 failed", "failed 3 changed"]),
            (.respond(2, status: 200), ["persist 2 succeeded", "succeeded 2", "idle ok=1 failed=2 cancelled=0"]),
        ]),
        Scenario(name: "TLS failures and invalid requests are not retried", steps: [
            (.enqueue([1, 2]), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.fail(1, .transferFailed(reason: .tlsFailed(message: "untrusted"))), ["persist 1 failed", "failed 1 transfer"]),
            (.fail(2, .requestInvalid(reason: .invalidTarget(.notAURL("x")))), ["persist 2 failed", "failed 2 request", "idle ok=0 failed=2 cancelled=0"]),
        ]),
        Scenario(name: "--retry 0 disables automatic retries", policy: RetryPolicy(maximumRetries: 0), steps: [
            (.enqueue([1]), ["queued 1", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 503), ["persist 1 failed", "failed 1 status 503", "idle ok=0 failed=1 cancelled=0"]),
        ]),
        Scenario(name: "cancel aborts an in-flight job at once, drops a pending retry, and ignores late completions", limit: 2, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.cancel(1), ["abort 1", "persist 1 cancelled", "cancelled 1", "persist 3 uploading", "start 3#1"]),
            (.respond(1, status: 200), []),
            (.progress(1, bytes: 10, at: 10), []),
            (.respond(2, status: 503), ["persist 2 queued", "timer retry 2 at 500ms", "retrying 2 after 500ms"]),
            (.cancel(2), ["cancel timer retry 2", "persist 2 cancelled", "cancelled 2"]),
            (.timer(.retry(2), at: 500), []),
            (.cancel(2), []),
            (.respond(3, status: 200), ["persist 3 succeeded", "succeeded 3", "idle ok=1 failed=0 cancelled=2"]),
            (.cancel(3), []),
        ]),
        Scenario(name: "cancel all cancels queued and in-flight jobs, not failed ones", limit: 1, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 404), ["persist 1 failed", "failed 1 status 404", "persist 2 uploading", "start 2#1"]),
            (.cancelAll, ["abort 2", "persist 2 cancelled", "cancelled 2", "persist 3 cancelled", "cancelled 3",
                          "idle ok=0 failed=1 cancelled=2"]),
        ]),
        Scenario(name: "retry restarts a failed or cancelled job with fresh automatic retries", limit: 1, policy: RetryPolicy(maximumRetries: 1), steps: [
            (.enqueue([1, 2]), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1"]),
            (.respond(1, status: 403), ["persist 1 failed", "failed 1 status 403", "persist 2 uploading", "start 2#1"]),
            (.cancel(2), ["abort 2", "persist 2 cancelled", "cancelled 2", "idle ok=0 failed=1 cancelled=1"]),
            (.retry(1, refreshed: true), ["persist 1 queued +spec", "queued 1", "persist 1 uploading", "start 1#2"]),
            (.retry(2), ["persist 2 queued", "queued 2"]),
            (.respond(1, attempt: 2, status: 503), ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms", "persist 2 uploading", "start 2#2"]),
            (.retry(1), ["cancel timer retry 1", "persist 1 queued", "queued 1"]),
            (.retry(2), []),
        ]),
        Scenario(name: "retry all failed requeues every failed job", limit: 3, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1",
                                   "persist 2 uploading", "start 2#1", "persist 3 uploading", "start 3#1"]),
            (.respond(1, status: 400), ["persist 1 failed", "failed 1 status 400"]),
            (.respond(2, status: 200), ["persist 2 succeeded", "succeeded 2"]),
            (.fail(3, missingFile), ["persist 3 failed", "failed 3 multipart", "idle ok=1 failed=2 cancelled=0"]),
            (.retryFailedAndCancelled, ["persist 1 queued", "queued 1", "persist 3 queued", "queued 3",
                               "persist 1 uploading", "start 1#2", "persist 3 uploading", "start 3#2"]),
        ]),
        Scenario(name: "stop: a job whose whole body went out may have arrived (failed, kept from R); one mid-body goes back to queued", limit: 3, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1",
                                   "persist 2 uploading", "start 2#1", "persist 3 uploading", "start 3#1"]),
            (.began(1), ["started 1 total=1000"]),
            (.began(2), ["started 2 total=1000"]),
            (.sentWholeBody(1), []),
            (.progress(1, bytes: 1000, at: 200), ["progressed 1 bytes=1000"]),
            (.progress(2, bytes: 400, at: 200), ["progressed 2 bytes=400"]),
            (.cancel(3), ["abort 3", "persist 3 cancelled", "cancelled 3"]),
            (.stop, ["paused", "abort 1", "persist 1 failed", "failed 1 transfer", "abort 2", "persist 2 queued", "queued 2"]),
            (.retryFailedAndCancelled, ["persist 3 queued", "queued 3"]),
        ]),
        Scenario(name: "cancel decides by the last byte: before it cancelled, after it interrupted and then may-have-arrived", limit: 2, steps: [
            (.enqueue([1, 2]), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.progress(1, bytes: 999, at: 200), ["progressed 1 bytes=999"]),
            (.cancel(1), ["abort 1", "persist 1 cancelled", "cancelled 1"]),
            (.sentWholeBody(2), []),
            (.cancel(2), ["interrupt 2"]),
            (.cancel(2), []),
            (.fail(2, connectionLost), ["persist 2 failed", "failed 2 transfer", "idle ok=0 failed=1 cancelled=1"]),
            (.retryFailedAndCancelled, ["persist 1 queued", "queued 1", "persist 1 uploading", "start 1#2"]),
        ]),
        Scenario(name: "an answer after an interrupting cancel wins: a 2xx succeeds, another status cancels", limit: 2, steps: [
            (.enqueue([1, 2]), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.sentWholeBody(1), []),
            (.sentWholeBody(2), []),
            (.cancel(1), ["interrupt 1"]),
            (.cancel(2), ["interrupt 2"]),
            (.respond(1, status: 201), ["persist 1 succeeded", "succeeded 1"]),
            (.respond(2, status: 503), ["persist 2 cancelled", "cancelled 2", "idle ok=1 failed=0 cancelled=1"]),
        ]),
        Scenario(name: "a failure after the last byte is not retried; before it, it is", limit: 2, steps: [
            (.enqueue([1, 2]), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.sentWholeBody(1), []),
            (.fail(1, connectionLost), ["persist 1 failed", "failed 1 transfer"]),
            (.fail(2, connectionLost), ["persist 2 queued", "timer retry 2 at 500ms", "retrying 2 after 500ms"]),
        ]),
        Scenario(name: "remove aborts an in-flight job; clear removes the succeeded jobs only", limit: 2, steps: [
            (.enqueue([1, 2, 3, 4]), ["queued 1", "queued 2", "queued 3", "queued 4",
                                      "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.remove(1), ["abort 1", "delete 1", "removed 1", "persist 3 uploading", "start 3#1"]),
            (.remove(1), []),
            (.respond(2, status: 200), ["persist 2 succeeded", "succeeded 2", "persist 4 uploading", "start 4#1"]),
            (.cancel(3), ["abort 3", "persist 3 cancelled", "cancelled 3"]),
            (.respond(4, status: 404), ["persist 4 failed", "failed 4 status 404", "idle ok=1 failed=1 cancelled=1"]),
            (.clearSucceeded, ["delete 2", "removed 2"]),
            (.clearSucceeded, []),
        ]),
        Scenario(name: "every progress report is an event (the manager's tick throttles); a stale attempt's is ignored", steps: [
            (.enqueue([1]), ["queued 1", "persist 1 uploading", "start 1#1"]),
            (.began(1, total: 10_000, at: 0), ["started 1 total=10000"]),
            (.progress(1, bytes: 100, at: 100), ["progressed 1 bytes=100"]),
            (.progress(1, bytes: 1000, at: 200), ["progressed 1 bytes=1000"]),
            (.respond(1, status: 200, at: 300), ["persist 1 succeeded", "succeeded 1", "idle ok=1 failed=0 cancelled=0"]),
            (.progress(1, bytes: 1100, at: 400), []),
        ]),
        Scenario(name: "stop aborts in-flight jobs and requeues them and waiting ones, paused", limit: 2, steps: [
            (.enqueue([1, 2, 3]), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1", "persist 2 uploading", "start 2#1"]),
            (.respond(1, status: 500), ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms", "persist 3 uploading", "start 3#1"]),
            (.stop, ["paused", "cancel timer retry 1", "persist 1 queued", "queued 1", "abort 2", "persist 2 queued", "queued 2",
                     "abort 3", "persist 3 queued", "queued 3"]),
            (.stop, []),
            (.resume, ["resumed", "persist 1 uploading", "start 1#2", "persist 2 uploading", "start 2#2"]),
        ]),
        Scenario(name: "restore requeues interrupted jobs, keeps failed ones and flags changed files", limit: 1, steps: [
            (.restore([Fixtures.job(1, state: .uploading), Fixtures.job(2, state: .failed), Fixtures.job(3, state: .queued),
                       Fixtures.job(4, state: .queued)], changed: [4: "/x/file4.bin"]),
             ["persist 1 queued", "queued 1", "failed 2 recorded", "queued 3", "persist 4 failed", "failed 4 changed",
              "persist 1 uploading", "start 1#1"]),
            (.enqueue([1, 5]), ["queued 5"]),
        ]),
        Scenario(name: "held restored jobs wait for their release while new jobs start; released, they queue behind", limit: 1, steps: [
            (.restoreHolding([Fixtures.job(1, state: .queued), Fixtures.job(2, state: .uploading), Fixtures.job(3, state: .cancelled)]),
             ["queued 1 held", "persist 2 queued", "queued 2 held"]),
            (.enqueue([4, 5]), ["queued 4", "queued 5", "persist 4 uploading", "start 4#1"]),
            (.releaseHeld, ["queued 1", "queued 2"]),
            (.releaseHeld, []),
            (.respond(4, status: 200), ["persist 4 succeeded", "succeeded 4", "persist 5 uploading", "start 5#1"]),
            (.respond(5, status: 200), ["persist 5 succeeded", "succeeded 5", "persist 1 uploading", "start 1#1"]),
        ]),
        Scenario(name: "a held job retried starts alone; one cancelled stays cancelled; a pause holds released jobs", limit: 2, steps: [
            (.restoreHolding([Fixtures.job(1, state: .queued), Fixtures.job(2, state: .queued), Fixtures.job(3, state: .queued)]),
             ["queued 1 held", "queued 2 held", "queued 3 held"]),
            (.retry(2), ["persist 2 queued", "queued 2", "persist 2 uploading", "start 2#1"]),
            (.cancel(1), ["persist 1 cancelled", "cancelled 1"]),
            (.pause, ["paused"]),
            (.releaseHeld, ["queued 3"]),
            (.resume, ["resumed", "persist 3 uploading", "start 3#1"]),
        ]),
        Scenario(name: "stopping leaves held jobs held (the journal has them queued for the next run)", steps: [
            (.restoreHolding([Fixtures.job(1, state: .queued)]), ["queued 1 held"]),
            (.stop, ["paused"]),
        ]),
        Scenario(name: "restoring nothing to do still reports idle", steps: [
            (.restore([Fixtures.job(2, state: .failed)]), ["failed 2 recorded", "idle ok=0 failed=1 cancelled=0"]),
        ]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        var machine = UploadQueueStateMachine(
            configuration: .init(concurrencyLimit: scenario.limit, retryPolicy: scenario.policy),
            random: FixedRandom(fraction: scenario.jitter)
        )
        for (index, (step, expected)) in scenario.steps.enumerated() {
            let actions = Self.apply(step, to: &machine)
            #expect(ActionDescription.describe(actions) == expected, "step \(index): \(step)")
        }
    }

    static func apply(_ step: Step, to machine: inout UploadQueueStateMachine) -> [UploadQueueStateMachine.Action] {
        switch step {
        case let .enqueue(ids): return machine.enqueue(ids.map { Fixtures.job($0) })
        case let .restore(jobs, changed):
            return machine.restore(jobs, changedFiles: Dictionary(uniqueKeysWithValues: changed.map { (UploadJobID($0.key), $0.value) }))
        case let .restoreHolding(jobs): return machine.restore(jobs, holding: true)
        case .releaseHeld: return machine.releaseHeld()
        case let .began(id, attempt, total, at):
            return machine.transferBegan(UploadJobID(id), attempt: attempt, totalBytes: total, now: Fixtures.at(at), date: Fixtures.date(at))
        case let .progress(id, attempt, bytes, at):
            return machine.transportProgressed(UploadJobID(id), attempt: attempt, bytesSent: bytes, now: Fixtures.at(at))
        case let .sentWholeBody(id, attempt):
            return machine.transportSentWholeBody(UploadJobID(id), attempt: attempt)
        case let .respond(id, attempt, status, retryAfterMs, at):
            return machine.transportCompleted(
                UploadJobID(id), attempt: attempt, response: UploadResponse(status: status),
                retryAfter: retryAfterMs.map { .milliseconds($0) }, now: Fixtures.at(at)
            )
        case let .fail(id, attempt, error, at):
            return machine.transportFailed(UploadJobID(id), attempt: attempt, error: error, now: Fixtures.at(at))
        case let .timer(key, at): return machine.timerFired(key, now: Fixtures.at(at))
        case .pause: return machine.pause()
        case .resume: return machine.resume()
        case .stop: return machine.stop()
        case .cancelAll: return machine.cancelAll()
        case .retryFailedAndCancelled: return machine.retryFailedAndCancelled()
        case .clearSucceeded: return machine.clearSucceeded()
        case let .limit(limit): return machine.setConcurrencyLimit(limit)
        case let .cancel(id): return machine.cancel(UploadJobID(id))
        case let .retry(id, refreshed):
            let files = refreshed ? [QueuedFile(path: "file\(id).bin", size: 2000, modificationTimeNanoseconds: 2)] : nil
            return machine.retry(UploadJobID(id), refreshedFiles: files)
        case let .remove(id): return machine.remove(UploadJobID(id))
        }
    }

    @Test("rate over the sliding window and ETA")
    func rateAndETA() {
        var machine = UploadQueueStateMachine(configuration: .init(rateWindow: .seconds(2)))
        _ = machine.enqueue([Fixtures.job(1)])
        let id = UploadJobID(1)
        _ = machine.transferBegan(id, attempt: 1, totalBytes: 10_000, now: Fixtures.at(0), date: Fixtures.date(0))
        _ = machine.transportProgressed(id, attempt: 1, bytesSent: 1000, now: Fixtures.at(1000))
        var progress = machine.job(id)!.progress
        #expect(progress.bytesPerSecond == 1000)
        #expect(progress.estimatedTimeRemaining == .seconds(9))
        #expect(progress.fractionCompleted == 0.1)
        // The window slides: the first second's slow start drops out.
        _ = machine.transportProgressed(id, attempt: 1, bytesSent: 5000, now: Fixtures.at(2000))
        _ = machine.transportProgressed(id, attempt: 1, bytesSent: 9000, now: Fixtures.at(3000))
        progress = machine.job(id)!.progress
        #expect(progress.bytesPerSecond == 4000)
        #expect(progress.estimatedTimeRemaining == .milliseconds(250))
        // The summary counts file bytes: the 1,000-byte file of a 10,000-byte request is 90 % sent.
        let summary = machine.summary
        #expect(summary.bytesSent == 900)
        #expect(summary.totalBytes == 1000)
        #expect(summary.uploading == 1)
        #expect(summary.bytesPerSecond == 4000)
    }

    @Test("a job waiting for its retry counts as queued, so the queue is not idle")
    func waitingJobIsNotIdle() {
        var machine = UploadQueueStateMachine()
        _ = machine.enqueue([Fixtures.job(1)])
        _ = machine.transportCompleted(UploadJobID(1), attempt: 1, response: UploadResponse(status: 503), retryAfter: nil, now: .zero)
        #expect(!machine.isIdle)
        #expect(machine.job(UploadJobID(1))?.state == .queued)
        #expect(machine.job(UploadJobID(1))?.retryAt != nil)
        #expect(machine.job(UploadJobID(1))?.lastError == .serverRejected(status: 503, retryAfter: nil))
        #expect(machine.summary.queued == 1)
    }

    @Test("the response is kept on the job, failed or not; success clears the last error")
    func responseCapture() {
        var machine = UploadQueueStateMachine()
        let id = UploadJobID(1)
        _ = machine.enqueue([Fixtures.job(1)])
        let failure = UploadResponse(status: 500, headers: [HeaderField(name: "X-Id", value: "a")], body: Array("oops".utf8))
        _ = machine.transportCompleted(id, attempt: 1, response: failure, retryAfter: nil, now: .zero)
        #expect(machine.job(id)?.response == failure)
        _ = machine.timerFired(.retry(id), now: Fixtures.at(1000))
        let success = UploadResponse(status: 200, body: Array("ok".utf8))
        _ = machine.transferBegan(id, attempt: 2, totalBytes: 50, now: Fixtures.at(1000), date: Fixtures.date(1000))
        _ = machine.transportCompleted(id, attempt: 2, response: success, retryAfter: nil, now: Fixtures.at(1100))
        let job = machine.job(id)!
        #expect(job.state == .succeeded)
        #expect(job.response?.bodyText == "ok")
        #expect(job.lastError == nil)
        #expect(job.attempts == 2)
        #expect(job.progress.bytesSent == 50)
    }

    @Test("10,000 jobs go through the machine in linear time")
    func manyJobs() {
        var machine = UploadQueueStateMachine(configuration: .init(concurrencyLimit: 8))
        var started: [UploadJobID] = []
        func collect(_ actions: [UploadQueueStateMachine.Action]) {
            for case let .start(id, _, _) in actions { started.append(id) }
        }
        collect(machine.enqueue((1...10_000).map { Fixtures.job(Int64($0)) }))
        var index = 0
        while index < started.count {
            collect(machine.transportCompleted(started[index], attempt: 1, response: UploadResponse(status: 200), retryAfter: nil, now: .zero))
            index += 1
        }
        #expect(started.count == 10_000)
        #expect(started == started.sorted())
        #expect(machine.summary.succeeded == 10_000)
        #expect(machine.isIdle)
    }
}
