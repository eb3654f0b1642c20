import Dispatch
import FerryHeadless
import Synchronization
import Testing

@Suite("ferry send ends one way only")
struct SendTerminationTests {
    /// The shut-downs a termination carried out.
    final class ShutDowns: Sendable {
        let calls = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)

        func record(_ reason: String, _ status: Int32) {
            calls.withLock { $0.append("\(reason) \(status)") }
            done.signal()
        }
    }

    @Test("a run starts running; ending early shuts down once, later ends do nothing")
    func endEarly() {
        let shutDowns = ShutDowns()
        let termination = SendTermination { shutDowns.record($0, $1) }
        #expect(termination.currentPhase == .running)
        termination.end(because: "interrupted", status: 130)
        #expect(termination.currentPhase == .endingEarly)
        termination.end(because: "interrupted again", status: 130)
        termination.endSoon(because: "standard output was closed by its reader", status: 141)
        #expect(shutDowns.calls.withLock { $0 } == ["interrupted 130"])
    }

    @Test("once finishing normally, signals and broken output no longer end the run")
    func finishFirst() async {
        let shutDowns = ShutDowns()
        let termination = SendTermination { shutDowns.record($0, $1) }
        await termination.finishNormally()
        #expect(termination.currentPhase == .finishingNormally)
        termination.end(because: "interrupted", status: 130)
        termination.endSoon(because: "closed", status: 141)
        #expect(termination.currentPhase == .finishingNormally)
        #expect(shutDowns.calls.withLock { $0 }.isEmpty)
    }

    @Test("ending soon marks the run at once and shuts down on another queue")
    func endSoon() {
        let shutDowns = ShutDowns()
        let termination = SendTermination { shutDowns.record($0, $1) }
        termination.endSoon(because: "closed", status: 141)
        #expect(termination.currentPhase == .endingEarly)
        #expect(shutDowns.done.wait(timeout: .now() + 10) == .success)
        #expect(shutDowns.calls.withLock { $0 } == ["closed 141"])
    }

    @Test("of many racing ends, exactly one shuts down")
    func race() {
        let shutDowns = ShutDowns()
        let termination = SendTermination { shutDowns.record($0, $1) }
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            termination.end(because: "end \(index)", status: Int32(index))
        }
        #expect(shutDowns.calls.withLock { $0 }.count == 1)
    }
}
