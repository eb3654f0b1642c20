import Foundation
import Testing
@testable import UploadModel
@testable import UploadEngine
import TestSupport

@Suite("A job's phase and its projection on UploadJob")
struct JobPhaseTests {
    @Test("each phase shows as one state; only backing off has a retry instant")
    func projection() {
        let attempt = AttemptInFlight(number: 2, rateWindow: .seconds(5))
        let phases: [(JobPhase, UploadJobState, SchedulerInstant?)] = [
            (.waiting(ticket: 7), .queued, nil),
            (.backingOff(until: Fixtures.at(1500)), .queued, Fixtures.at(1500)),
            (.uploading(attempt), .uploading, nil),
            (.finished(.succeeded), .succeeded, nil),
            (.finished(.failed), .failed, nil),
            (.finished(.cancelled), .cancelled, nil),
        ]
        for (phase, state, retryAt) in phases {
            let record = JobRecord(job: Fixtures.job(1, state: .succeeded), phase: phase)
            #expect(record.job.state == state, "\(phase)")
            #expect(record.job.retryAt == retryAt, "\(phase)")
        }
    }

    @Test("moving between phases moves the projection: backing off, waiting again, uploading, failed for good")
    func projectionFollowsTheMachine() {
        var machine = UploadQueueStateMachine(
            configuration: .init(concurrencyLimit: 1, retryPolicy: RetryPolicy(maximumRetries: 1, baseDelay: .seconds(1))),
            random: FixedRandom(fraction: 0)
        )
        let first = UploadJobID(1), second = UploadJobID(2)
        _ = machine.enqueue([Fixtures.job(1), Fixtures.job(2)])
        #expect(machine.job(first)?.state == .uploading)
        #expect(machine.job(second)?.state == .queued)

        let retrying = machine.transportCompleted(first, attempt: 1, response: UploadResponse(status: 503), retryAfter: nil,
                                                  now: Fixtures.at(200))
        let backingOff = machine.job(first)
        #expect(backingOff?.state == .queued)
        #expect(backingOff?.retryAt == Fixtures.at(700))
        #expect(retrying.contains(.emit(.retrying(backingOff!, after: .milliseconds(500)))))
        #expect(machine.job(second)?.state == .uploading)
        #expect(machine.count(.queued) == 1 && machine.count(.uploading) == 1)

        _ = machine.timerFired(.retry(first), now: Fixtures.at(700))
        #expect(machine.job(first)?.state == .queued)
        #expect(machine.job(first)?.retryAt == nil, "waiting again: no retry instant")

        _ = machine.transportCompleted(second, attempt: 1, response: UploadResponse(status: 201), retryAfter: nil, now: Fixtures.at(1300))
        #expect(machine.job(second)?.state == .succeeded)
        #expect(machine.job(first)?.state == .uploading)
        #expect(machine.job(first)?.attempts == 2)

        _ = machine.transportCompleted(first, attempt: 2, response: UploadResponse(status: 503), retryAfter: nil, now: Fixtures.at(1400))
        #expect(machine.job(first)?.state == .failed, "its one automatic retry is used")
        #expect(machine.job(first)?.retryAt == nil)
        #expect(machine.count(.failed) == 1 && machine.count(.succeeded) == 1)
        #expect(machine.count(.queued) == 0 && machine.count(.uploading) == 0)
        #expect(machine.isIdle)
    }

    @Test("a user's retry of a job backing off cancels its timer and starts it at once, without a retry instant")
    func retryWhileBackingOff() {
        var machine = UploadQueueStateMachine(random: FixedRandom(fraction: 0))
        let id = UploadJobID(1)
        _ = machine.enqueue([Fixtures.job(1)])
        _ = machine.transportFailed(id, attempt: 1, error: .transferFailed(reason: .connectTimedOut), now: .zero)
        #expect(machine.job(id)?.retryAt == Fixtures.at(500))
        let actions = ActionDescription.describe(machine.retry(id))
        #expect(actions == ["cancel timer retry 1", "persist 1 queued", "queued 1", "persist 1 uploading", "start 1#2"])
        #expect(machine.job(id)?.state == .uploading)
        #expect(machine.job(id)?.retryAt == nil)
        #expect(machine.timerFired(.retry(id), now: Fixtures.at(500)).isEmpty, "the old timer finds nothing to do")
    }
}
