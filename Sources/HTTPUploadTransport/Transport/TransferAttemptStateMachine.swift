import UploadModel
import UploadProtocols

/// One attempt of `TransferExchange` without I/O (NIO style): the lease, the exchange, the
/// cancel, the re-send and the redirect as events in, `Action`s out.
///
/// The rules it keeps:
/// - **The outcome is reported once**, and only after the connection went back to the pool: every
///   `Action` that reports leaves the machine `finished`, and an exchange's end gives the
///   connection back before anything else.
/// - **A cancel wins at every step.** Before the lease is asked for, the attempt reports cancelled
///   without asking; while leasing, the lease is withdrawn; a connection delivered after that goes
///   back unused; during the exchange the exchange is cancelled (and reports as it ends); while a
///   re-send or a redirect is being prepared, it is not sent.
/// - **A re-send, once.** A failure before any response byte, on a connection the exchange says
///   may be re-sent (`mayResend`: a reused connection whose server certainly lacks the request, or
///   an HTTP/2 stream the server refused), is sent again on a new connection, once per attempt,
///   without counting; a second such failure is the outcome.
/// - **A redirect is not an outcome.** With `-L`, a 307 or 308 that `RedirectPolicy` follows goes
///   to a new exchange (with its own machine), whose outcome this attempt reports; the chain stops
///   at `RedirectPolicy.maximumRedirects`, where the redirect itself is the outcome.
///
/// Generic over the connection and the body pump so that the tables test it with stand-ins.
struct TransferAttemptStateMachine<Connection: Sendable, Pump: Sendable>: Sendable {
    typealias LeaseID = ConnectionPoolStateMachine.LeaseID
    typealias Outcome = Result<UploadResponse, UploadError>

    /// What the executor must do.
    enum Action: Sendable {
        /// Nothing.
        case none
        /// Ask the pool for a connection to the endpoint, under `lease`; a new one when `fresh`.
        case lease(LeaseID, fresh: Bool)
        /// Run the request on `connection` as the exchange named by `lease`, its body from `pump`.
        case execute(Connection, Pump, lease: LeaseID)
        /// Withdraw the lease, close the pump, and report `outcome`.
        case withdraw(LeaseID, Pump, report: Outcome)
        /// Close the pump and report `outcome` (no lease is outstanding).
        case closePump(Pump, report: Outcome)
        /// Give back a connection delivered after the attempt ended, unused (reusable).
        case giveBack(Connection, LeaseID)
        /// Cancel the exchange named by `lease` on `connection`; it reports as it ends.
        case cancelExchange(Connection, lease: LeaseID)
        /// Cancel the redirected request's exchange; it reports in this attempt's place.
        case cancelRedirect
        /// Give the connection back to the pool (closed unless `reusable`), then do `next`.
        case release(Connection, LeaseID, reusable: Bool, then: Next)
        /// Report `outcome`.
        case report(Outcome)
        /// Start the redirected request's exchange.
        case startRedirect
    }

    /// What follows an exchange's end, once its connection is back in the pool.
    enum Next: Sendable {
        /// Report `outcome` (a failure reports the bytes held back first).
        case report(Outcome)
        /// Send the request again from its first byte on a new connection (progress restarts at 0).
        case resend
        /// Prepare the exchange for the redirected request to `target`, then `redirectReady()`.
        case follow(UploadTarget)
    }

    private enum State: Sendable {
        /// Not yet begun.
        case initial
        /// A lease is outstanding.
        case leasing(LeaseID, Pump)
        /// An exchange runs on a leased connection.
        case running(Connection, LeaseID)
        /// The first try failed and may be re-sent: the re-send's lease is not asked for yet.
        case resending
        /// A redirect is followed: the redirected exchange is being prepared.
        case following
        /// The redirected exchange carries on.
        case redirected
        /// The outcome was reported.
        case finished
    }

    /// The failure a cancelled attempt reports (the manager ignores it).
    static var cancelled: UploadError { .transferFailed(reason: .other(message: "cancelled")) }

    private var state = State.initial
    /// Whether the attempt was cancelled.
    private(set) var isCancelled = false
    private var resent = false
    private let target: UploadTarget
    private let followsRedirects: Bool
    private let redirects: [String]

    /// Creates the machine for an attempt (or a redirected request) not yet begun.
    ///
    /// - Parameters:
    ///   - target: Where the request goes.
    ///   - followsRedirects: Whether 307 and 308 are followed (`-L`).
    ///   - redirects: The URLs followed to reach `target`, which is the last (none for an
    ///     attempt's first request).
    init(target: UploadTarget, followsRedirects: Bool, redirects: [String] = []) {
        self.target = target
        self.followsRedirects = followsRedirects
        self.redirects = redirects
    }

    /// Whether the attempt reported its outcome.
    var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: Events

    /// A try begins (the first, or the re-send): its body is reading in `pump`, and `lease`
    /// names the connection it asks for.
    mutating func tryBegan(lease: LeaseID, pump: Pump) -> Action {
        switch state {
        case .initial, .resending:
            guard !isCancelled else {
                state = .finished
                return .closePump(pump, report: .failure(Self.cancelled))
            }
            state = .leasing(lease, pump)
            return .lease(lease, fresh: resent)
        case .leasing, .running, .following, .redirected, .finished:
            preconditionFailure("a try began while another one runs or after the outcome")
        }
    }

    /// The pool delivered `connection` for `lease`.
    mutating func leaseDelivered(_ connection: Connection, lease: LeaseID) -> Action {
        guard case let .leasing(current, pump) = state, current == lease, !isCancelled else {
            return .giveBack(connection, lease)
        }
        state = .running(connection, lease)
        return .execute(connection, pump, lease: lease)
    }

    /// The pool could not deliver a connection for `lease` (connect failed, timed out, shut down).
    mutating func leaseFailed(_ error: UploadError, lease: LeaseID) -> Action {
        guard case let .leasing(current, pump) = state, current == lease else { return .none }
        state = .finished
        return .closePump(pump, report: .failure(error))
    }

    /// The exchange ended.
    ///
    /// - Parameters:
    ///   - outcome: How.
    ///   - reusable: Whether the connection can carry another request.
    ///   - mayResend: Whether a failure before any response byte may be sent again
    ///     (`ExchangeHandler.Request.ended`).
    mutating func exchangeEnded(_ outcome: ExchangeStateMachine.Outcome, reusable: Bool, mayResend: Bool) -> Action {
        guard case let .running(connection, lease) = state else {
            preconditionFailure("an exchange ended that was not running")
        }
        switch outcome {
        case var .response(response):
            if followsRedirects, case let .follow(next)? = RedirectPolicy.decide(
                status: response.status, location: response.value(forHeader: "Location"), from: target,
                redirectsSoFar: redirects.count, followsRedirects: true
            ) {
                state = .following
                return .release(connection, lease, reusable: reusable, then: .follow(next))
            }
            response.redirects = redirects
            state = .finished
            return .release(connection, lease, reusable: reusable, then: .report(.success(response)))
        case let .failed(error, beforeResponse):
            if beforeResponse, mayResend, !resent, !isCancelled {
                resent = true
                state = .resending
                return .release(connection, lease, reusable: reusable, then: .resend)
            }
            state = .finished
            return .release(connection, lease, reusable: reusable, then: .report(.failure(error)))
        }
    }

    /// The redirected request's exchange is ready to start (after `Next.follow`).
    mutating func redirectReady() -> Action {
        guard case .following = state else { preconditionFailure("no redirect is being followed") }
        guard !isCancelled else {
            state = .finished
            return .report(.failure(Self.cancelled))
        }
        state = .redirected
        return .startRedirect
    }

    /// The redirected request's exchange reported `outcome`.
    mutating func redirectEnded(_ outcome: Outcome) -> Action {
        guard case .redirected = state else { return .none }
        state = .finished
        return .report(outcome)
    }

    /// The attempt is cancelled (from any step; again is harmless).
    mutating func cancel() -> Action {
        isCancelled = true
        switch state {
        case let .leasing(lease, pump):
            state = .finished
            return .withdraw(lease, pump, report: .failure(Self.cancelled))
        case let .running(connection, lease):
            return .cancelExchange(connection, lease: lease)
        case .redirected:
            return .cancelRedirect
        case .initial, .resending, .following, .finished:
            return .none
        }
    }
}

extension TransferAttemptStateMachine.Action: Equatable where Connection: Equatable, Pump: Equatable {}
extension TransferAttemptStateMachine.Next: Equatable {}
