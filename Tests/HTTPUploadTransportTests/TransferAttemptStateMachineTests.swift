import Multipart
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadProtocols

/// `TransferAttemptStateMachine` without a pool or a socket: every order in which an attempt's
/// lease, exchange, cancel, re-send and redirect can arrive. Connections and pumps are names.
@Suite("Transfer attempt state machine")
struct TransferAttemptStateMachineTests {
    private typealias Machine = TransferAttemptStateMachine<String, String>
    private typealias LeaseID = ConnectionPoolStateMachine.LeaseID

    private let first = LeaseID(value: 1)
    private let second = LeaseID(value: 2)
    private let cancelled = Machine.Outcome.failure(Machine.cancelled)
    private let lost = UploadError.transferFailed(reason: .connectionLost(message: "the server closed the connection"))

    private func machine(followsRedirects: Bool = false, redirects: [String] = []) throws -> Machine {
        Machine(target: try UploadTarget("http://a.test/up"), followsRedirects: followsRedirects, redirects: redirects)
    }

    /// A machine whose first try runs on `c1` (leased as `first`, body `p1`).
    private func running(followsRedirects: Bool = false, redirects: [String] = []) throws -> Machine {
        var machine = try machine(followsRedirects: followsRedirects, redirects: redirects)
        #expect(machine.tryBegan(lease: first, pump: "p1") == .lease(first, fresh: false))
        #expect(machine.leaseDelivered("c1", lease: first) == .execute("c1", "p1", lease: first))
        return machine
    }

    private func answer(_ status: Int, location: String? = nil) -> UploadResponse {
        UploadResponse(status: status, headers: location.map { [HeaderField(name: "Location", value: $0)] } ?? [])
    }

    @Test("lease, exchange, response: the connection goes back, then the response is reported")
    func ordinary() throws {
        var machine = try running()
        #expect(machine.exchangeEnded(.response(answer(201)), reusable: true, mayResend: false)
            == .release("c1", first, reusable: true, then: .report(.success(answer(201)))))
        #expect(machine.isFinished)
        #expect(machine.cancel() == .none)
    }

    @Test("a cancel before the attempt began: no lease is asked for, cancelled is reported")
    func cancelBeforeLease() throws {
        var machine = try machine()
        #expect(machine.cancel() == .none)
        #expect(machine.tryBegan(lease: first, pump: "p1") == .closePump("p1", report: cancelled))
        #expect(machine.isFinished)
        #expect(machine.cancel() == .none)
    }

    @Test("a cancel while leasing withdraws the lease; a connection delivered anyway goes back unused")
    func cancelWhileLeasing() throws {
        var machine = try machine()
        _ = machine.tryBegan(lease: first, pump: "p1")
        #expect(machine.cancel() == .withdraw(first, "p1", report: cancelled))
        #expect(machine.leaseDelivered("c1", lease: first) == .giveBack("c1", first))
        #expect(machine.leaseFailed(lost, lease: first) == .none)
        #expect(machine.cancel() == .none)
    }

    @Test("a cancel between the lease and the exchange's start: the exchange is cancelled and reports once it ends")
    func cancelBetweenLeaseAndStart() throws {
        var machine = try running()
        #expect(machine.isCancelled == false)
        #expect(machine.cancel() == .cancelExchange("c1", lease: first))
        #expect(machine.isCancelled)
        // `PooledConnection` ends an exchange cancelled before it started this way: nothing sent,
        // the connection as it was.
        #expect(machine.exchangeEnded(.failed(Machine.cancelled, beforeResponse: true), reusable: true, mayResend: false)
            == .release("c1", first, reusable: true, then: .report(cancelled)))
        #expect(machine.isFinished)
    }

    @Test("a cancel during the exchange is not re-sent, even if the exchange ended as may-resend")
    func cancelDuringExchange() throws {
        var machine = try running()
        #expect(machine.cancel() == .cancelExchange("c1", lease: first))
        #expect(machine.cancel() == .cancelExchange("c1", lease: first))
        #expect(machine.exchangeEnded(.failed(lost, beforeResponse: true), reusable: false, mayResend: true)
            == .release("c1", first, reusable: false, then: .report(.failure(lost))))
    }

    @Test("a lease that fails is the outcome; a late cancel changes nothing")
    func leaseFailure() throws {
        var machine = try machine()
        _ = machine.tryBegan(lease: first, pump: "p1")
        #expect(machine.leaseFailed(lost, lease: first) == .closePump("p1", report: .failure(lost)))
        #expect(machine.cancel() == .none)
        #expect(machine.isFinished)
    }

    @Test("a reused connection dead before the response: re-sent once on a new connection; a second failure is reported")
    func resendOnce() throws {
        var machine = try running()
        #expect(machine.exchangeEnded(.failed(lost, beforeResponse: true), reusable: false, mayResend: true)
            == .release("c1", first, reusable: false, then: .resend))
        #expect(!machine.isFinished)
        #expect(machine.tryBegan(lease: second, pump: "p2") == .lease(second, fresh: true))
        #expect(machine.leaseDelivered("c1", lease: first) == .giveBack("c1", first))
        #expect(machine.leaseDelivered("c2", lease: second) == .execute("c2", "p2", lease: second))
        #expect(machine.exchangeEnded(.failed(lost, beforeResponse: true), reusable: false, mayResend: true)
            == .release("c2", second, reusable: false, then: .report(.failure(lost))))
    }

    @Test("the re-sent request's answer is the outcome")
    func resendAnswered() throws {
        var machine = try running()
        _ = machine.exchangeEnded(.failed(lost, beforeResponse: true), reusable: false, mayResend: true)
        _ = machine.tryBegan(lease: second, pump: "p2")
        _ = machine.leaseDelivered("c2", lease: second)
        #expect(machine.exchangeEnded(.response(answer(200)), reusable: true, mayResend: false)
            == .release("c2", second, reusable: true, then: .report(.success(answer(200)))))
    }

    @Test("a cancel while the re-send is prepared: it is not sent")
    func cancelBeforeResend() throws {
        var machine = try running()
        _ = machine.exchangeEnded(.failed(lost, beforeResponse: true), reusable: false, mayResend: true)
        #expect(machine.cancel() == .none)
        #expect(machine.tryBegan(lease: second, pump: "p2") == .closePump("p2", report: cancelled))
    }

    @Test("may have arrived (mayResend false), or failed after response bytes: reported, never re-sent",
          arguments: [(true, false), (false, true), (false, false)])
    func noResend(beforeResponse: Bool, mayResend: Bool) throws {
        var machine = try running()
        #expect(machine.exchangeEnded(.failed(lost, beforeResponse: beforeResponse), reusable: false, mayResend: mayResend)
            == .release("c1", first, reusable: false, then: .report(.failure(lost))))
        #expect(machine.isFinished)
    }

    @Test("with -L a 307 is followed: the connection goes back, the redirected exchange reports in the attempt's place")
    func redirect() throws {
        var machine = try running(followsRedirects: true)
        let next = try UploadTarget("http://b.test/new")
        #expect(machine.exchangeEnded(.response(answer(307, location: "http://b.test/new")), reusable: true, mayResend: false)
            == .release("c1", first, reusable: true, then: .follow(next)))
        #expect(machine.redirectReady() == .startRedirect)
        #expect(machine.cancel() == .cancelRedirect)
        #expect(machine.redirectEnded(cancelled) == .report(cancelled))
        #expect(machine.redirectEnded(.success(answer(200))) == .none)
        #expect(machine.cancel() == .none)
    }

    @Test("a cancel while the redirect is prepared: the redirected request is not sent")
    func cancelBeforeRedirect() throws {
        var machine = try running(followsRedirects: true)
        _ = machine.exchangeEnded(.response(answer(308, location: "/new")), reusable: true, mayResend: false)
        #expect(machine.cancel() == .none)
        #expect(machine.redirectReady() == .report(cancelled))
        #expect(machine.isFinished)
    }

    @Test("a redirect that is not followed is the outcome, with the redirects followed so far",
          arguments: [(false, 307, 0), (true, 303, 0), (true, 307, RedirectPolicy.maximumRedirects)])
    func redirectNotFollowed(followsRedirects: Bool, status: Int, redirectsSoFar: Int) throws {
        let redirects = (0..<redirectsSoFar).map { "http://a.test/\($0)" }
        var machine = try running(followsRedirects: followsRedirects, redirects: redirects)
        var expected = answer(status, location: "/new")
        expected.redirects = redirects
        #expect(machine.exchangeEnded(.response(answer(status, location: "/new")), reusable: true, mayResend: false)
            == .release("c1", first, reusable: true, then: .report(.success(expected))))
    }

    @Test("the redirect chain is followed up to its limit, not beyond")
    func redirectChainLimit() throws {
        var machine = try running(followsRedirects: true, redirects: (1..<RedirectPolicy.maximumRedirects).map { "http://a.test/\($0)" })
        guard case .release(_, _, _, then: .follow) = machine.exchangeEnded(
            .response(answer(307, location: "/again")), reusable: true, mayResend: false
        ) else {
            Issue.record("the last redirect within the limit was not followed")
            return
        }
    }

    /// The events an attempt may receive, for `reportsOnce`.
    private enum Event: CaseIterable {
        case cancel, delivered, leaseFailed, endedMayResend, endedAnswered, redirectEnded
    }

    @Test("whatever the order of events, the outcome is reported exactly once (a final cancel included)")
    func reportsOnce() throws {
        func reports(_ action: Machine.Action) -> Int {
            switch action {
            case .withdraw, .closePump, .report: return 1
            case .release(_, _, _, then: .report): return 1
            default: return 0
            }
        }
        let events = Event.allCases
        for a in events {
            for b in events {
                for c in events {
                    var machine = try machine(followsRedirects: true)
                    var count = reports(machine.tryBegan(lease: first, pump: "p1"))
                    var running = false
                    var resending = false
                    for event in [a, b, c, .cancel] {
                        let action: Machine.Action
                        switch event {
                        case .cancel: action = machine.cancel()
                        case .delivered: action = machine.leaseDelivered("c1", lease: first)
                        case .leaseFailed: action = machine.leaseFailed(lost, lease: first)
                        case .endedMayResend, .endedAnswered:
                            guard running else { continue }
                            action = event == .endedMayResend
                                ? machine.exchangeEnded(.failed(lost, beforeResponse: true), reusable: false, mayResend: true)
                                : machine.exchangeEnded(.response(answer(200)), reusable: true, mayResend: false)
                            running = false
                        case .redirectEnded: action = machine.redirectEnded(.success(answer(200)))
                        }
                        if case .execute = action { running = true }
                        if case .release(_, _, _, then: .resend) = action { resending = true }
                        count += reports(action)
                        if resending {
                            resending = false
                            count += reports(machine.tryBegan(lease: second, pump: "p2"))
                        }
                    }
                    // A cancel with the exchange still running reports once the exchange ends.
                    if running {
                        count += reports(machine.exchangeEnded(.failed(Machine.cancelled, beforeResponse: false),
                                                               reusable: false, mayResend: false))
                    }
                    #expect(count == 1, "\([a, b, c])")
                    #expect(machine.isFinished, "\([a, b, c])")
                }
            }
        }
    }
}
