import Multipart
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

/// What becomes of a job whose answer was lost after its whole body went out, by what its
/// server is known to do with `Idempotency-Key` (`UploadQueueStateMachine+IdempotencyKeys`), in
/// the pure queue: sent again with the same key where the server honours keys, held while that
/// is not known, "may have arrived" where it does not or nothing is learnt in time.
@Suite("Idempotency-Key: settling a lost answer")
struct IdempotencyKeyRetryTests {
    static let url = "http://example.test/upload"
    static let lost = UploadError.transferFailed(reason: .connectionLost(message: "reset"))

    /// A machine giving keys with prefix `p`, 3 retries, no jitter (backoffs 500, 1000, 2000 ms).
    static func machine(honoured: Set<String> = [], retries: Int = 3) -> UploadQueueStateMachine {
        var machine = UploadQueueStateMachine(
            configuration: .init(concurrencyLimit: 2, retryPolicy: RetryPolicy(maximumRetries: retries)),
            random: FixedRandom(fraction: 0)
        )
        machine.useIdempotencyKeys(prefix: "p", honoured: honoured)
        return machine
    }

    /// An answer with `status`, naming `key` back when given.
    static func answer(_ status: Int, naming key: String? = nil) -> UploadResponse {
        UploadResponse(status: status, headers: key.map { [HeaderField(name: "idempotency-key", value: "\"\($0)\"")] } ?? [])
    }

    /// Job `id`'s whole body went out, then its connection was lost.
    static func loseAnswer(_ id: Int64, attempt: Int = 1, at milliseconds: Int64 = 0,
                           in machine: inout UploadQueueStateMachine) -> [String] {
        _ = machine.transportSentWholeBody(UploadJobID(id), attempt: attempt)
        return ActionDescription.describe(machine.transportFailed(UploadJobID(id), attempt: attempt, error: lost, now: Fixtures.at(milliseconds)))
    }

    static func respond(_ id: Int64, _ response: UploadResponse, in machine: inout UploadQueueStateMachine) -> [String] {
        ActionDescription.describe(machine.transportCompleted(UploadJobID(id), attempt: 1, response: response, retryAfter: nil, now: Fixtures.at(0)))
    }

    @Test("each job has its own key, the same on every attempt; tus jobs, --no-idempotency-key and a key of the user's have none")
    func keys() {
        let machine = Self.machine()
        let spec = Fixtures.spec(named: "a.bin")
        #expect(machine.idempotencyKey(for: UploadJobID(7), spec: spec)?.text == "p-7")
        #expect(machine.idempotencyKey(for: UploadJobID(7), spec: spec) == machine.idempotencyKey(for: UploadJobID(7), spec: spec))
        #expect(machine.idempotencyKey(for: UploadJobID(8), spec: spec)?.text == "p-8")
        var own = spec
        own.headers = [HeaderField(name: "idempotency-KEY", value: "\"mine\"")]
        #expect(machine.idempotencyKey(for: UploadJobID(7), spec: own) == nil)
        var off = spec
        off.connection.sendsIdempotencyKey = false
        #expect(machine.idempotencyKey(for: UploadJobID(7), spec: off) == nil)
        var tus = spec
        tus.tus = TusJobOptions()
        #expect(machine.idempotencyKey(for: UploadJobID(7), spec: tus) == nil)
        #expect(UploadQueueStateMachine().idempotencyKey(for: UploadJobID(7), spec: spec) == nil, "no prefix, no keys")
    }

    @Test("an answer naming the key back is remembered; a later lost answer at that URL is retried, not 'may have arrived'")
    func honouredRetries() {
        var machine = Self.machine()
        _ = machine.enqueue([Fixtures.job(1), Fixtures.job(2)])
        #expect(Self.respond(1, Self.answer(200, naming: "p-1"), in: &machine)
                == ["remember \(Self.url) honours keys", "persist 1 succeeded", "succeeded 1"])
        #expect(Self.loseAnswer(2, in: &machine) == ["persist 2 queued", "timer retry 2 at 500ms", "retrying 2 after 500ms"])
        #expect(machine.job(UploadJobID(2))?.lastError == Self.lost, "retried for what it was, not as may-have-arrived")
        #expect(ActionDescription.describe(machine.timerFired(.retry(UploadJobID(2)), now: Fixtures.at(500)))
                == ["persist 2 uploading", "start 2#2"])
        #expect(Self.respond(1, Self.answer(200, naming: "p-1"), in: &machine) == [], "an answer of an ended attempt changes nothing")
    }

    @Test("while nothing is known the job waits; a verdict that comes meanwhile sends it again with its key")
    func heldUntilVerdict() {
        var machine = Self.machine()
        _ = machine.enqueue([Fixtures.job(1), Fixtures.job(2)])
        #expect(Self.loseAnswer(1, in: &machine) == ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms"])
        let held = machine.job(UploadJobID(1))
        #expect(held?.state == .queued)
        #expect(held?.lastError?.mayHaveArrived == true, "a kill now leaves it 'may have arrived', never re-sent blindly")
        _ = Self.respond(2, Self.answer(500, naming: "p-2"), in: &machine)
        #expect(ActionDescription.describe(machine.timerFired(.retry(UploadJobID(1)), now: Fixtures.at(500)))
                == ["persist 1 uploading", "start 1#2"])
    }

    @Test("still nothing known: it looks again while retries are left, then may have arrived")
    func noVerdictInTime() {
        var machine = Self.machine(retries: 2)
        _ = machine.enqueue([Fixtures.job(1)])
        #expect(Self.loseAnswer(1, in: &machine) == ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms"])
        #expect(ActionDescription.describe(machine.timerFired(.retry(UploadJobID(1)), now: Fixtures.at(500))) == ["timer retry 1 at 1500ms"])
        #expect(ActionDescription.describe(machine.timerFired(.retry(UploadJobID(1)), now: Fixtures.at(1500)))
                == ["persist 1 failed", "failed 1 transfer", "idle ok=0 failed=1 cancelled=0"])
        #expect(machine.job(UploadJobID(1))?.mayHaveArrived == true)
    }

    @Test("a server that answers 2xx without naming the key does not honour keys: the lost answer may have arrived")
    func ignoredKeys() {
        var machine = Self.machine()
        _ = machine.enqueue([Fixtures.job(1), Fixtures.job(2), Fixtures.job(3)])
        #expect(Self.respond(1, Self.answer(201), in: &machine) == ["persist 1 succeeded", "succeeded 1", "persist 3 uploading", "start 3#1"])
        #expect(Self.loseAnswer(2, in: &machine) == ["persist 2 failed", "failed 2 transfer"])
        #expect(machine.job(UploadJobID(2))?.mayHaveArrived == true)
    }

    @Test("--idempotent: honoured without a word from the server")
    func declaredHonoured() {
        var machine = Self.machine()
        var job = Fixtures.job(1)
        job.spec.connection.endpointHonoursIdempotencyKeys = true
        _ = machine.enqueue([job])
        #expect(Self.loseAnswer(1, in: &machine) == ["persist 1 queued", "timer retry 1 at 500ms", "retrying 1 after 500ms"])
        #expect(machine.job(UploadJobID(1))?.lastError == Self.lost)
    }

    @Test("restored: a job that lost its answer is queued again only where the journal saw keys honoured")
    func restored() {
        var lostJob = Fixtures.job(1, state: .queued)
        lostJob.lastError = .transferFailed(reason: .unansweredAfterSending(.connectionLost(message: "reset")))
        var unknown = Self.machine()
        #expect(ActionDescription.describe(unknown.restore([lostJob]))
                == ["persist 1 failed", "failed 1 transfer", "idle ok=0 failed=1 cancelled=0"])
        var honoured = Self.machine(honoured: [Self.url])
        #expect(ActionDescription.describe(honoured.restore([lostJob])) == ["queued 1", "persist 1 uploading", "start 1#1"])
        var interrupted = Fixtures.job(2, state: .failed)
        interrupted.lastError = .transferFailed(reason: .interruptedAfterSending)
        #expect(honoured.mayResendUnanswered(interrupted))
        #expect(!unknown.mayResendUnanswered(interrupted))
    }

    @Test("a job that may have arrived is sent again by itself where its resumable upload's URL is known: the attempt asks first")
    func askedByItsUploadURL() throws {
        var job = Fixtures.job(3, state: .failed)
        job.lastError = .transferFailed(reason: .interruptedAfterSending)
        job.spec.files = [QueuedFile(path: "big.bin", size: 1_000_000, modificationTimeNanoseconds: 1)]
        job.spec.connection.sendsIdempotencyKey = false
        let machine = Self.machine()
        #expect(!machine.mayResendUnanswered(job), "no key, no upload URL: nothing can ask")
        job.resumption = ResumableCheckpoint(uploadURL: "http://example.test/upload-resumption/1",
                                             body: RequestBody(segments: [], contentType: "multipart/form-data; boundary=b"))
        #expect(job.serverCanSayWhatArrived && machine.mayResendUnanswered(job))
        job.spec.connection.resumesUploads = false
        #expect(!job.serverCanSayWhatArrived, "--no-resumable: the upload's URL is not asked")
    }

    @Test("stopped after the whole body went out: waits for the next run where the server can settle it, fails 'may have arrived' elsewhere")
    func stoppedBeforeTheAnswer() {
        var honoured = Self.machine(honoured: [Self.url])
        _ = honoured.enqueue([Fixtures.job(1)])
        _ = honoured.transportSentWholeBody(UploadJobID(1), attempt: 1)
        let kept = ActionDescription.describe(honoured.stop())
        #expect(kept.contains("queued 1") && !kept.contains("failed 1 transfer"))
        let waiting = honoured.job(UploadJobID(1))
        #expect(waiting?.state == .queued)
        #expect(waiting?.lastError == .transferFailed(reason: .stoppedAfterSending),
                "the next attempt knows the last one may have completed")
        #expect(waiting?.attemptHistory.last?.outcome == .interrupted)

        var unknown = Self.machine()
        _ = unknown.enqueue([Fixtures.job(1)])
        _ = unknown.transportSentWholeBody(UploadJobID(1), attempt: 1)
        #expect(ActionDescription.describe(unknown.stop()).contains("failed 1 transfer"))
        #expect(unknown.job(UploadJobID(1))?.mayHaveArrived == true)
    }
}
