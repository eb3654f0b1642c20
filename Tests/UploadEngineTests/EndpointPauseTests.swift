import Multipart
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

/// Table tests of the pauses per endpoint (`UploadQueueStateMachine+Endpoints.swift`): refused
/// credentials and `Retry-After` hold every job of one endpoint while the others go on.
@Suite("UploadQueueStateMachine: endpoint pauses")
struct EndpointPauseTests {
    static let a = "http://a.test/upload"
    static let b = "https://b.test:8443/upload"
    static let bearer = HeaderField(name: "Authorization", value: "Bearer new")

    enum Step: Sendable {
        /// A step the queue's own table tests know.
        case queue(UploadQueueStateMachineTests.Step)
        /// Jobs sent to `url`.
        case enqueue([Int64], url: String)
        /// The user gave new credentials for the endpoint of `url`.
        case credentials(url: String, HeaderField)
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        var limit = 1
        var holds = false
        let steps: [(Step, [String])]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "ferry send: a 401 fails its job and, unsent, the endpoint's others; another endpoint goes on", steps: [
            (.enqueue([1, 2], url: a), ["queued 1", "queued 2", "persist 1 uploading", "start 1#1"]),
            (.enqueue([3], url: b), ["queued 3"]),
            (.enqueue([4], url: a), ["queued 4"]),
            (.queue(.respond(1, status: 401)), ["paused http://a.test credentials 401", "persist 1 failed", "failed 1 status 401",
                                                 "persist 2 failed", "failed 2 unsent 401", "persist 3 uploading", "start 3#1"]),
            (.queue(.respond(3, status: 200)), ["persist 3 succeeded", "succeeded 3", "persist 4 failed", "failed 4 unsent 401",
                                                 "idle ok=1 failed=3 cancelled=0"]),
        ]),
        Scenario(name: "the interface: a 401 holds its job and the endpoint's; new credentials send them with it, in ID order",
                 limit: 2, holds: true, steps: [
            (.enqueue([1, 2, 3], url: a), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1",
                                           "persist 2 uploading", "start 2#1"]),
            (.enqueue([4], url: b), ["queued 4"]),
            (.queue(.respond(1, status: 401)), ["paused http://a.test credentials 401", "persist 1 queued", "queued 1",
                                                 "persist 4 uploading", "start 4#1"]),
            (.queue(.respond(2, status: 401)), ["persist 2 queued", "queued 2"]),
            (.queue(.respond(4, status: 200)), ["persist 4 succeeded", "succeeded 4"]),
            (.credentials(url: b, bearer), []),
            (.credentials(url: a, bearer), ["persist 1 queued +spec", "persist 2 queued +spec", "persist 3 queued +spec",
                                            "resumed http://a.test", "persist 1 uploading", "start 1#2", "persist 2 uploading", "start 2#2"]),
            (.queue(.respond(1, attempt: 2, status: 200)), ["persist 1 succeeded", "succeeded 1", "persist 3 uploading", "start 3#1"]),
        ]),
        Scenario(name: "the interface: cancelling or removing the last job a credentials pause holds ends the pause; the next job goes",
                 holds: true, steps: [
            (.enqueue([1, 2, 3], url: a), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1"]),
            (.queue(.respond(1, status: 401)), ["paused http://a.test credentials 401", "persist 1 queued", "queued 1"]),
            (.queue(.cancel(1)), ["persist 1 cancelled", "cancelled 1"]),
            (.queue(.remove(2)), ["delete 2", "removed 2"]),
            (.queue(.cancel(3)), ["persist 3 cancelled", "cancelled 3", "resumed http://a.test", "idle ok=0 failed=0 cancelled=2"]),
            (.enqueue([4], url: a), ["queued 4", "persist 4 uploading", "start 4#1"]),
            (.queue(.respond(4, status: 401)), ["paused http://a.test credentials 401", "persist 4 queued", "queued 4"]),
            (.queue(.cancelAll), ["persist 4 cancelled", "cancelled 4", "resumed http://a.test", "idle ok=0 failed=0 cancelled=3"]),
        ]),
        Scenario(name: "a 403 pauses only after the endpoint accepted an upload; before, it fails its job alone", steps: [
            (.enqueue([1, 2, 3], url: a), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1"]),
            (.queue(.respond(1, status: 403)), ["persist 1 failed", "failed 1 status 403", "persist 2 uploading", "start 2#1"]),
            (.queue(.respond(2, status: 200)), ["persist 2 succeeded", "succeeded 2", "persist 3 uploading", "start 3#1"]),
            (.enqueue([4, 5], url: a), ["queued 4", "queued 5"]),
            (.queue(.respond(3, status: 403)), ["paused http://a.test credentials 403", "persist 3 failed", "failed 3 status 403",
                                                 "persist 4 failed", "failed 4 unsent 403", "persist 5 failed", "failed 5 unsent 403",
                                                 "idle ok=1 failed=4 cancelled=0"]),
        ]),
        Scenario(name: "a 429 with Retry-After holds the whole endpoint until then; the other endpoint goes on", limit: 2, steps: [
            (.enqueue([1, 2, 3], url: a), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1",
                                           "persist 2 uploading", "start 2#1"]),
            (.enqueue([4], url: b), ["queued 4"]),
            (.queue(.respond(1, status: 429, retryAfterMs: 2000, at: 1000)),
             ["timer wait http://a.test at 3000ms", "paused http://a.test 429 until 3000ms", "persist 1 queued",
              "timer retry 1 at 3000ms", "retrying 1 after 2000ms", "persist 4 uploading", "start 4#1"]),
            (.queue(.respond(2, status: 200, at: 1500)), ["persist 2 succeeded", "succeeded 2"]),
            (.queue(.respond(4, status: 200, at: 1500)), ["persist 4 succeeded", "succeeded 4"]),
            (.queue(.timer(.retry(1), at: 3000)), []),
            (.queue(.timer(.endpointWait(UploadEndpoint(url: a)!), at: 3000)),
             ["resumed http://a.test", "persist 1 uploading", "start 1#2", "persist 3 uploading", "start 3#1"]),
        ]),
        Scenario(name: "a later Retry-After extends the pause, an earlier one leaves it; a 503 pauses as a 429 does", limit: 3, steps: [
            (.enqueue([1, 2, 3, 4], url: a), ["queued 1", "queued 2", "queued 3", "queued 4", "persist 1 uploading", "start 1#1",
                                              "persist 2 uploading", "start 2#1", "persist 3 uploading", "start 3#1"]),
            (.queue(.respond(1, status: 429, retryAfterMs: 2000, at: 0)),
             ["timer wait http://a.test at 2000ms", "paused http://a.test 429 until 2000ms", "persist 1 queued",
              "timer retry 1 at 2000ms", "retrying 1 after 2000ms"]),
            (.queue(.respond(2, status: 503, retryAfterMs: 5000, at: 500)),
             ["timer wait http://a.test at 5500ms", "paused http://a.test 503 until 5500ms", "persist 2 queued",
              "timer retry 2 at 5500ms", "retrying 2 after 5000ms"]),
            (.queue(.respond(3, status: 429, retryAfterMs: 1000, at: 600)),
             ["persist 3 queued", "timer retry 3 at 1600ms", "retrying 3 after 1000ms"]),
            (.queue(.timer(.retry(3), at: 1600)), []),
            (.queue(.timer(.endpointWait(UploadEndpoint(url: a)!), at: 5500)),
             ["resumed http://a.test", "persist 3 uploading", "start 3#2", "persist 4 uploading", "start 4#1"]),
        ]),
        Scenario(name: "refused credentials outlast a Retry-After: the wait's end says what still holds", limit: 2, holds: true, steps: [
            (.enqueue([1, 2, 3], url: a), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1",
                                           "persist 2 uploading", "start 2#1"]),
            (.queue(.respond(1, status: 401)), ["paused http://a.test credentials 401", "persist 1 queued", "queued 1"]),
            (.queue(.respond(2, status: 503, retryAfterMs: 1000, at: 0)),
             ["timer wait http://a.test at 1000ms", "paused http://a.test credentials 401, 503 until 1000ms", "persist 2 queued",
              "timer retry 2 at 1000ms", "retrying 2 after 1000ms"]),
            (.queue(.timer(.endpointWait(UploadEndpoint(url: a)!), at: 1000)), ["paused http://a.test credentials 401"]),
            (.credentials(url: a, bearer), ["persist 1 queued +spec", "persist 2 queued +spec", "persist 3 queued +spec",
                                            "resumed http://a.test", "persist 1 uploading", "start 1#2", "persist 3 uploading", "start 3#1"]),
        ]),
        Scenario(name: "a set-aside job cancelled stays cancelled when the pause ends", limit: 1, steps: [
            (.enqueue([1, 2, 3], url: a), ["queued 1", "queued 2", "queued 3", "persist 1 uploading", "start 1#1"]),
            (.queue(.respond(1, status: 429, retryAfterMs: 1000, at: 0)),
             ["timer wait http://a.test at 1000ms", "paused http://a.test 429 until 1000ms", "persist 1 queued",
              "timer retry 1 at 1000ms", "retrying 1 after 1000ms"]),
            (.queue(.cancel(2)), ["persist 2 cancelled", "cancelled 2"]),
            (.queue(.timer(.endpointWait(UploadEndpoint(url: a)!), at: 1000)),
             ["resumed http://a.test", "persist 3 uploading", "start 3#1"]),
        ]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        var machine = UploadQueueStateMachine(
            configuration: .init(concurrencyLimit: scenario.limit, holdsForNewCredentials: scenario.holds),
            random: FixedRandom(fraction: 0)
        )
        for (index, (step, expected)) in scenario.steps.enumerated() {
            let actions = Self.apply(step, to: &machine)
            #expect(ActionDescription.describe(actions) == expected, "step \(index): \(step)")
        }
    }

    static func apply(_ step: Step, to machine: inout UploadQueueStateMachine) -> [UploadQueueStateMachine.Action] {
        switch step {
        case let .queue(step): UploadQueueStateMachineTests.apply(step, to: &machine)
        case let .enqueue(ids, url): machine.enqueue(ids.map { job($0, url: url) })
        case let .credentials(url, header): machine.resumeEndpoint(UploadEndpoint(url: url)!, replacingHeader: header)
        }
    }

    static func job(_ id: Int64, url: String) -> UploadJob {
        var spec = Fixtures.spec(named: "file\(id).bin")
        spec.url = url
        spec.headers = [HeaderField(name: "authorization", value: "Bearer old"), HeaderField(name: "X-Album", value: "2026")]
        return UploadJob(id: UploadJobID(id), spec: spec)
    }

    @Test("new credentials replace the header of that name in each held job, which share one spec again")
    func credentialsReplaceTheHeader() {
        var machine = UploadQueueStateMachine(configuration: .init(concurrencyLimit: 1, holdsForNewCredentials: true))
        let template = Self.job(1, url: Self.a).spec
        _ = machine.enqueue((1...3).map { UploadJob(id: UploadJobID($0), spec: template.replacingFiles(Self.job($0, url: Self.a).spec.files)) })
        _ = machine.transportCompleted(UploadJobID(1), attempt: 1, response: UploadResponse(status: 401), retryAfter: nil, now: .zero)
        #expect(machine.endpointPauses == [UploadEndpoint(url: Self.a)!: EndpointPause(refusedCredentials: 401)])
        #expect(machine.job(UploadJobID(1))?.lastError == .serverRejected(status: 401, retryAfter: nil))
        #expect(machine.job(UploadJobID(1))?.attemptHistory.last?.status == 401)
        _ = machine.resumeEndpoint(UploadEndpoint(url: Self.a)!, replacingHeader: Self.bearer)
        let specs = (1...3).compactMap { machine.job(UploadJobID($0))?.spec }
        #expect(specs.allSatisfy { $0.headers == [HeaderField(name: "X-Album", value: "2026"), Self.bearer] })
        #expect(specs.map(\.files) == (1...3).map { Self.job($0, url: Self.a).spec.files })
        #expect(machine.endpointPauses.isEmpty)
    }

    @Test("endpoints are origins: scheme, host in any case, port (the default one spelled or not)")
    func endpointIdentity() {
        #expect(UploadEndpoint(url: "http://A.test/x") == UploadEndpoint(url: "http://a.test:80/y?z"))
        #expect(UploadEndpoint(url: "a.test/x") == UploadEndpoint(url: "http://a.test/"))
        #expect(UploadEndpoint(url: "https://a.test/x") != UploadEndpoint(url: "http://a.test/x"))
        #expect(UploadEndpoint(url: "http://a.test:8080/x") != UploadEndpoint(url: "http://a.test/x"))
        #expect(UploadEndpoint(url: "https://a.test:443/x")?.description == "https://a.test")
        #expect(UploadEndpoint(url: "http://[::1]:8080/x")?.description == "http://[::1]:8080")
        #expect(UploadEndpoint(url: "ftp://a.test/x") == nil)
    }
}
