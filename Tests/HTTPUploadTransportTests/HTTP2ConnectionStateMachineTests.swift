import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// `HTTP2ConnectionStateMachine` without I/O: the first SETTINGS makes the connection ready, a
/// later one changes its stream capacity, the idle timer runs only while no stream is open.
@Suite("HTTP/2 connection state machine")
struct HTTP2ConnectionStateMachineTests {
    private typealias Machine = HTTP2ConnectionStateMachine

    /// One event and the action it must give.
    private enum Step: CustomStringConvertible {
        case added, settings(Int?), opened(Int), closedStream(Int), idleFired, goAway(Int), closed

        func apply(_ machine: inout Machine) -> Machine.Action {
            switch self {
            case .added: machine.added()
            case let .settings(value): machine.settingsReceived(maximumConcurrentStreams: value)
            case let .opened(id): machine.streamOpened(id)
            case let .closedStream(id): machine.streamClosed(id)
            case .idleFired: machine.idleTimeoutFired()
            case let .goAway(last): machine.goAwayReceived(lastStreamID: last)
            case .closed: machine.closed()
            }
        }

        var description: String { "\(self)" }
    }

    private static let tables: [(String, [(Step, Machine.Action)])] = [
        ("the first SETTINGS is ready with the server's limit, capped at 100; no limit means 100", [
            (.added, .scheduleIdleClose), (.settings(128), .ready(streamCapacity: 100)),
        ]),
        ("without a limit in the first SETTINGS", [(.settings(nil), .ready(streamCapacity: 100))]),
        ("a server's 0 is taken as 1", [(.settings(0), .ready(streamCapacity: 1))]),
        ("a later SETTINGS lowering and raising the limit changes the capacity; one without it, or the same, does not", [
            (.settings(10), .ready(streamCapacity: 10)), (.settings(nil), .none), (.settings(10), .none),
            (.settings(2), .changeStreamCapacity(2)), (.settings(50), .changeStreamCapacity(50)),
            (.settings(500), .changeStreamCapacity(100)), (.settings(200), .none),
        ]),
        ("the idle timer stops with the first stream and starts again when the last closes", [
            (.added, .scheduleIdleClose), (.settings(5), .ready(streamCapacity: 5)), (.opened(1), .cancelIdleClose),
            (.opened(3), .none), (.closedStream(1), .none), (.idleFired, .none), (.closedStream(3), .scheduleIdleClose),
            (.closedStream(3), .none), (.idleFired, .close),
        ]),
        ("a timer that fires with a stream open closes nothing", [
            (.added, .scheduleIdleClose), (.opened(1), .cancelIdleClose), (.idleFired, .none),
        ]),
        ("GOAWAY goes to the pool each time; closing after SETTINGS stops the timer", [
            (.settings(5), .ready(streamCapacity: 5)), (.goAway(7), .goAway), (.goAway(3), .goAway), (.closed, .cancelIdleClose),
            (.settings(1), .none), (.goAway(1), .none), (.idleFired, .none),
        ]),
        ("closing before SETTINGS fails the readiness", [(.added, .scheduleIdleClose), (.closed, .failReady), (.settings(5), .none)]),
    ]

    @Test("every event in order gives its action", arguments: 0..<Self.tables.count)
    func table(_ index: Int) {
        let (name, steps) = Self.tables[index]
        var machine = Machine()
        for (number, (step, expected)) in steps.enumerated() {
            #expect(step.apply(&machine) == expected, "\(name), step \(number + 1): \(step)")
        }
    }

    @Test("the lowest GOAWAY last stream ID is kept")
    func goAwayLastStream() {
        var machine = Machine()
        #expect(machine.goAwayLastStreamID == nil)
        _ = machine.goAwayReceived(lastStreamID: 9)
        _ = machine.goAwayReceived(lastStreamID: 5)
        _ = machine.goAwayReceived(lastStreamID: 7)
        #expect(machine.goAwayLastStreamID == 5)
    }
}
