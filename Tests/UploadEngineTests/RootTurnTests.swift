import Dispatch
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine

/// The root's turn never makes a transport's thread wait: an outcome is taken right there when
/// the turn is free, and handed to the root queue, in order, when it is not.
@Suite("The root's turn")
struct RootTurnTests {
    private final class Trace: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test("an outcome heard while the turn is free runs at once on the thread that heard it")
    func freeTurnRunsOnTheCallersThread() {
        let turn = RootTurn(label: "ferry.tests.turn")
        let caller = pthread_self()
        let ranHere = Mutex(false)
        turn.runNowOrHandOver {
            ranHere.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 && turn.isHeldHere && !turn.mayWait }
        }
        #expect(ranHere.withLock { $0 })
        #expect(!turn.isHeldHere)
    }

    @Test("an outcome heard while the turn is taken returns at once and runs after the work before it")
    func takenTurnHandsOver() {
        let turn = RootTurn(label: "ferry.tests.turn")
        let trace = Trace()
        let release = DispatchSemaphore(value: 0)
        turn.async {
            release.wait()
            trace.append("holder")
        }
        turn.async { trace.append("queued before") }
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            turn.runNowOrHandOver { trace.append("outcome") }
            returned.signal()
        }
        let didReturn = returned.wait(timeout: .now() + 30) == .success
        release.signal()
        turn.sync {}
        #expect(didReturn, "the outcome's thread waited for the turn")
        #expect(trace.all == ["holder", "queued before", "outcome"])
    }

    @Test("an outcome heard inside the turn is handed over, never run inside it")
    func nestedOutcomeIsHandedOver() {
        let turn = RootTurn(label: "ferry.tests.turn")
        let trace = Trace()
        turn.async {
            turn.runNowOrHandOver { trace.append("outcome") }
            trace.append("step")
        }
        // The outcome is handed over behind whatever waited when it came: twice round.
        turn.sync {}
        turn.sync {}
        #expect(trace.all == ["step", "outcome"])
    }

    @Test("a timer cancelled in a turn taken in passing does not run, though it fired meanwhile")
    func timerCancelledInPassing() {
        let turn = RootTurn(label: "ferry.tests.turn")
        let scheduler = DispatchUploadScheduler()
        let ran = Mutex(false)
        DispatchQueue.global().sync {
            turn.runNowOrHandOver {
                let timer = turn.schedule(scheduler, at: scheduler.now) { ran.withLock { $0 = true } }
                // The timer fires on the root queue and waits there for the turn.
                usleep(100_000)
                timer.cancel()
            }
        }
        turn.sync {}
        #expect(!ran.withLock { $0 })
    }

    @Test("the manager hears an answer while its root's turn is taken without making the transport wait")
    func managerNeverMakesTheTransportWait() throws {
        let harness = ManagerHarness(limit: 1)
        let id = try harness.enqueue(1)[0]
        #expect(harness.transport.sendWholeBody(job: id))
        let release = DispatchSemaphore(value: 0)
        harness.manager.root.async { release.wait() }
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            harness.transport.respond(job: id, status: 201)
            answered.signal()
        }
        let didReturn = answered.wait(timeout: .now() + 30) == .success
        release.signal()
        #expect(didReturn, "the transport's thread waited for the root's turn")
        harness.settle()
        #expect(harness.manager.job(id)?.state == .succeeded)
    }
}
