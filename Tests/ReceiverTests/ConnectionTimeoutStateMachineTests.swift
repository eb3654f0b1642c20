import NIOCore
@testable import Receiver
import Testing

@Suite("Connection timeouts (state machine, no I/O)")
struct ConnectionTimeoutStateMachineTests {
    static let timeouts = ReceiverTimeouts(
        header: .seconds(10), body: .seconds(30), minimumBodyRate: 100, rateWindow: .seconds(5), send: .seconds(20),
        keepAliveIdle: .seconds(60))
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    func at(_ seconds: Double) -> NIODeadline {
        start + .nanoseconds(Int64(seconds * 1e9))
    }

    @Test("a first request whose head is not complete within the header timeout is answered 408")
    func headerTimeout() {
        var machine = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        machine.bytesArrived(now: at(3))
        #expect(machine.nextDeadline == at(10), "counted from the connection's start")
        #expect(machine.deadlineReached(now: at(9.9)) == .none)
        #expect(machine.deadlineReached(now: at(10)) == .answerTimeout(.headerTimedOut(limit: .seconds(10))))
        #expect(machine.deadlineReached(now: at(12)) == .none, "the answer gets its grace")
        #expect(machine.deadlineReached(now: at(15)) == .close)
    }

    @Test("a connection that sends nothing is closed without a word")
    func silentConnection() {
        var machine = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        #expect(machine.deadlineReached(now: at(10)) == .close)
    }

    @Test("after an answer, a kept-alive connection waits keepAliveIdle, then the next head gets the header timeout")
    func keepAlive() {
        var machine = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        machine.bytesArrived(now: at(0.1))
        machine.headReceived(now: at(0.1))
        machine.endReceived(now: at(0.1))
        #expect(machine.nextDeadline == nil, "the server is working: no clock")
        machine.answerEnded(now: at(1))
        #expect(machine.nextDeadline == at(61))
        #expect(machine.deadlineReached(now: at(30)) == .none)
        machine.bytesArrived(now: at(50))
        #expect(machine.nextDeadline == at(60))
        #expect(machine.deadlineReached(now: at(60)) == .answerTimeout(.headerTimedOut(limit: .seconds(10))))

        var idle = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        idle.headReceived(now: at(0))
        idle.endReceived(now: at(0))
        idle.answerEnded(now: at(1))
        #expect(idle.deadlineReached(now: at(61)) == .close)
    }

    @Test("the body timeout counts only time with a read pending")
    func bodyTimeoutCountsWaiting() {
        var machine = ConnectionTimeoutStateMachine(timeouts: ReceiverTimeouts(body: .seconds(30), minimumBodyRate: 0), now: start)
        machine.headReceived(now: at(0))
        #expect(machine.nextDeadline == nil, "nobody asked for the body yet")
        machine.readRequested(now: at(0))
        #expect(machine.bodyReceived(count: 65_536, now: at(1)) == .none)
        // The receiver writes its file for 100 s and asks for nothing: no clock runs.
        #expect(machine.deadlineReached(now: at(101)) == .none)
        machine.readRequested(now: at(101))
        #expect(machine.nextDeadline == at(131))
        #expect(machine.deadlineReached(now: at(130)) == .none)
        #expect(machine.deadlineReached(now: at(131)) == .failRequest(.bodyTimedOut(limit: .seconds(30))))
        #expect(machine.deadlineReached(now: at(137)) == .close)
    }

    @Test("a body trickling under the minimum rate is failed at the end of a window; a steady one is not")
    func slowBody() {
        var slow = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        slow.headReceived(now: at(0))
        slow.readRequested(now: at(0))
        var action = ConnectionTimeoutStateMachine.Action.none
        for second in 1...5 where action == .none {
            action = slow.bodyReceived(count: 1, now: at(Double(second)))
            if action == .none { slow.readRequested(now: at(Double(second))) }
        }
        #expect(action == .failRequest(.bodyTooSlow(received: 5, window: .seconds(5), minimumRate: 100)))

        var steady = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        steady.headReceived(now: at(0))
        for second in 0..<60 {
            steady.readRequested(now: at(Double(second)))
            #expect(steady.bodyReceived(count: 100, now: at(Double(second) + 1)) == .none)
        }
        steady.endReceived(now: at(60))
        #expect(steady.nextDeadline == nil)
    }

    @Test("a window that ends while waiting with too few bytes fails the request")
    func slowBodyAtDeadline() {
        var machine = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        machine.headReceived(now: at(0))
        machine.readRequested(now: at(0))
        #expect(machine.bodyReceived(count: 10, now: at(1)) == .none)
        machine.readRequested(now: at(1))
        #expect(machine.nextDeadline == at(5))
        #expect(machine.deadlineReached(now: at(5)) == .failRequest(.bodyTooSlow(received: 10, window: .seconds(5), minimumRate: 100)))
    }

    @Test("an answer the client does not read is cut after the send timeout")
    func sendTimeout() {
        var machine = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        machine.headReceived(now: at(0))
        machine.endReceived(now: at(0))
        machine.writabilityChanged(isWritable: false, now: at(1))
        #expect(machine.nextDeadline == at(21))
        machine.writabilityChanged(isWritable: true, now: at(15))
        #expect(machine.nextDeadline == nil)
        machine.writabilityChanged(isWritable: false, now: at(16))
        #expect(machine.deadlineReached(now: at(36)) == .close)
    }

    @Test("an early answer (413) leaves the rest of the body under the body clocks, then waits for the next request")
    func earlyAnswer() {
        var machine = ConnectionTimeoutStateMachine(timeouts: Self.timeouts, now: start)
        machine.headReceived(now: at(0))
        machine.answerEnded(now: at(0.5))
        machine.readRequested(now: at(0.5))
        #expect(machine.nextDeadline == at(5.5))
        #expect(machine.bodyReceived(count: 1_000, now: at(1)) == .none)
        machine.endReceived(now: at(1))
        #expect(machine.nextDeadline == at(61))
    }
}
