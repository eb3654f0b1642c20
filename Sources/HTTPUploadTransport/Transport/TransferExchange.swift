import Multipart
import NIOCore
import NIOHTTP1
import Synchronization
import Uploading

/// One attempt on `HTTPTransport`: leases a connection, runs the exchange on it, gives the
/// connection back, and reports the outcome once.
///
/// A reused connection that proves dead before any response byte arrived (the server closed it
/// while it was idle, just as it was reused) is not a failure of the attempt: the request is
/// re-sent once on a new connection, as curl does, because the server answered nothing. So is an
/// HTTP/2 stream the server refused unprocessed (`REFUSED_STREAM`, or above its GOAWAY's last
/// stream).
///
/// With `-L`, a 307 or 308 that `RedirectPolicy` follows hands the request to a new exchange for
/// the redirected request (its own target, endpoint and head; the same body from its first byte),
/// which reports in this one's place: a redirect is not a new attempt, and progress starts again
/// from 0.
final class TransferExchange: TransportTask {
    private enum Phase: Sendable {
        case leasing(ConnectionPool.LeaseID, BodyPump)
        case running(PooledConnection, token: Int)
        /// The exchange for the redirected request (`State.hop`) carries on.
        case redirected
        case finished
    }

    /// How a try of the request begins.
    private enum Try {
        /// The attempt's first try, from the transport's caller: a pooled connection, and a
        /// small body read at once.
        case first
        /// The re-send after a reused connection proved dead, from an event loop: a new
        /// connection.
        case resend
        /// A followed redirect's request, from an event loop: a pooled connection.
        case redirect
    }

    private struct State: Sendable {
        var phase: Phase?
        var cancelled = false
        var resent = false
        /// Body bytes written by the current try.
        var written: Int64 = 0
        /// When `progress` last received a report (the exchange's start before the first).
        var reportedAt = ContinuousClock.now
        /// Whether `written` has moved since the last report.
        var reportPending = false
        /// The exchange for the redirected request, once a redirect was followed.
        var hop: TransferExchange?
    }

    /// How often written bytes are reported to `progress`: a body sent within this time after
    /// the start reports nothing until its outcome (its hop would cost more than its upload),
    /// and a long one reports as often as the queue shows progress (10 times a second). Bytes
    /// held back are reported on the exchange's next tick (each second) or with a failure.
    static let reportInterval = Duration.milliseconds(100)

    private let pool: ConnectionPool
    private let endpoint: PoolEndpoint
    private let head: HTTPRequestHead
    private let body: RequestBody
    private let chunkSize: Int
    private let connectTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let progress: @Sendable (Int64) -> Void
    private let bodyCompleting: @Sendable () -> Bool
    private let completion: @Sendable (Result<UploadResponse, UploadError>) -> Void
    private let state = Mutex(State())
    /// The request as this exchange sends it (for a redirect's request).
    private let request: UploadRequest
    /// The URLs followed to reach this exchange's target, which is the last; empty when the
    /// target is the job's URL.
    private let redirects: [String]

    /// Prepares an attempt; `start()` sends it.
    ///
    /// - Parameters:
    ///   - pool: The connection pool.
    ///   - request: The request.
    ///   - chunkSize: The size of the body chunks written.
    ///   - redirects: The URLs followed to reach `request`'s target, which is the last (none for
    ///     an attempt's first request).
    ///   - progress: Receives the body bytes written so far.
    ///   - bodyCompleting: Asked before each sending's last body byte (`UploadTransport`).
    ///   - completion: Receives the outcome, once.
    init(
        pool: ConnectionPool,
        request: UploadRequest,
        chunkSize: Int,
        redirects: [String] = [],
        progress: @escaping @Sendable (Int64) -> Void,
        bodyCompleting: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) {
        self.pool = pool
        let endpoint = PoolEndpoint(request.message.target, options: request.connection)
        self.endpoint = endpoint
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.message.headers.count + 1)
        for header in request.message.headers { headers.add(name: header.name, value: header.value) }
        // Through a forwarding proxy (plain http), the request names the whole URL and carries
        // the proxy's credentials; a 407 is the proxy's answer, not the server's. (A proxy URL
        // that cannot be used fails the connect.)
        var uri = request.message.target.requestTarget
        var completion = completion
        if case let .forward(proxy)? = try? ProxyRoute(to: endpoint) {
            uri = "http://\(request.message.target.hostHeader)\(uri)"
            if let authorization = proxy.authorization { headers.add(name: "Proxy-Authorization", value: authorization) }
            completion = { [completion] result in
                guard case let .success(response) = result, response.status == 407 else { return completion(result) }
                completion(.failure(.transferFailed(reason: .proxyAuthenticationFailed(
                    proxy: proxy.address, status: 407, credentialsGiven: proxy.hasCredentials))))
            }
        }
        self.head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.message.method),
                                    uri: uri, headers: headers)
        self.body = request.message.body
        self.chunkSize = chunkSize
        self.connectTimeout = .nanoseconds(Int64(request.connectTimeout.nanoseconds))
        self.idleTimeout = .nanoseconds(Int64(request.idleTimeout.nanoseconds))
        self.progress = progress
        self.bodyCompleting = bodyCompleting
        self.completion = completion
        self.request = request
        self.redirects = redirects
    }

    /// Sends the request on a pooled connection. Called from the transport's caller.
    func start() {
        send(.first)
    }

    /// Sends the request: the body from its first byte, on a connection to `endpoint`.
    private func send(_ kind: Try) {
        let pump = BodyPump(body: body, chunkSize: chunkSize, readsSmallBodyNow: kind == .first)
        let lease = pool.makeLeaseID()
        let proceed = state.withLock { state in
            guard !state.cancelled else { return false }
            state.phase = .leasing(lease, pump)
            return true
        }
        guard proceed else {
            pump.close()
            finish(.failure(Self.cancelled))
            return
        }
        pool.lease(lease, to: endpoint, fresh: kind == .resend, connectTimeout: connectTimeout) { result in
            self.leased(result, pump: pump, token: lease.value)
        }
    }

    /// The failure a cancelled exchange reports (the manager ignores it).
    private static let cancelled = UploadError.transferFailed(reason: .other(message: "cancelled"))

    var bytesWritten: Int64 {
        let (written, hop) = state.withLock { ($0.written, $0.hop) }
        return hop?.bytesWritten ?? written
    }

    func cancel() {
        let (phase, hop) = state.withLock { state -> (Phase?, TransferExchange?) in
            state.cancelled = true
            return (state.phase, state.hop)
        }
        switch phase {
        case let .leasing(lease, pump):
            pool.cancelLease(lease)
            pump.close()
            finish(.failure(Self.cancelled))
        case let .running(connection, token):
            connection.cancel(token: token)
        case .redirected:
            hop?.cancel()
        case .finished, nil:
            break
        }
    }

    private func leased(_ result: Result<PooledConnection, UploadError>, pump: BodyPump, token: Int) {
        let connection: PooledConnection
        switch result {
        case let .failure(error):
            pump.close()
            finish(.failure(error))
            return
        case let .success(leased):
            connection = leased
        }
        let proceed = state.withLock { state in
            guard !state.cancelled, case .leasing = state.phase else { return false }
            state.phase = .running(connection, token: token)
            return true
        }
        guard proceed else {
            pump.close()
            pool.release(connection, lease: ConnectionPool.LeaseID(value: token), reusable: true)
            return
        }
        connection.execute(ExchangeHandler.Request(
            token: token, isCancelled: { self.state.withLock { $0.cancelled } }, head: head, bodyLength: body.contentLength, pump: pump, idleTimeout: idleTimeout,
            progress: { bytes in self.wrote(bytes) },
            bodyCompleting: bodyCompleting,
            ended: { outcome, fate, mayResend in
                self.ended(outcome, fate: fate, mayResend: mayResend, on: connection, token: token)
            }
        ))
    }

    private func ended(_ outcome: ExchangeStateMachine.Outcome, fate: ExchangeStateMachine.ConnectionFate,
                       mayResend: Bool, on connection: PooledConnection, token: Int) {
        pool.release(connection, lease: ConnectionPool.LeaseID(value: token), reusable: fate == .reuse)
        switch outcome {
        case var .response(response):
            if let target = redirectTarget(for: response) {
                follow(to: target)
            } else {
                response.redirects = redirects
                finish(.success(response))
            }
        case let .failed(error, beforeResponse):
            let resend = state.withLock { state in
                guard beforeResponse, mayResend, !state.resent, !state.cancelled else { return false }
                state.resent = true
                return true
            }
            if resend {
                state.withLock { state in
                    state.written = 0
                    state.reportPending = false
                }
                progress(0)
                send(.resend)
            } else {
                reportHeldBack()
                finish(.failure(error))
            }
        }
    }

    /// Where `RedirectPolicy` sends the request after this answer, with `-L`; nil when the answer
    /// is the outcome (not a redirect, or one that is not followed: the queue says why).
    private func redirectTarget(for response: UploadResponse) -> UploadTarget? {
        guard request.connection.followsRedirects, case let .follow(target)? = RedirectPolicy.decide(
            status: response.status, location: response.value(forHeader: "Location"), from: request.message.target,
            redirectsSoFar: redirects.count, followsRedirects: true
        ) else { return nil }
        return target
    }

    /// Sends the request again to `target`, on a new exchange that reports in this one's place.
    private func follow(to target: UploadTarget) {
        var redirected = request
        redirected.message.headers = RedirectPolicy.headers(request.message.headers, from: request.message.target, to: target)
        redirected.message.target = target
        let hop = TransferExchange(pool: pool, request: redirected, chunkSize: chunkSize, redirects: redirects + [target.url],
                                   progress: progress, bodyCompleting: bodyCompleting,
                                   completion: { result in self.hopFinished(result) })
        let proceed = state.withLock { state in
            guard !state.cancelled else { return false }
            state.phase = .redirected
            state.hop = hop
            state.written = 0
            state.reportPending = false
            return true
        }
        guard proceed else {
            finish(.failure(Self.cancelled))
            return
        }
        progress(0)
        hop.send(.redirect)
    }

    /// Reports the redirected request's outcome as this exchange's, keeping what it wrote and
    /// letting it go (it holds this exchange until it has reported).
    private func hopFinished(_ result: Result<UploadResponse, UploadError>) {
        let hop = state.withLock { $0.hop }
        let written = hop?.bytesWritten ?? 0
        state.withLock { state in
            state.written = written
            state.hop = nil
        }
        finish(result)
    }

    /// Records the bytes written so far and reports them if `reportInterval` has passed since
    /// the last report.
    private func wrote(_ bytes: Int64) {
        let report = state.withLock { state -> Bool in
            if bytes != state.written {
                state.written = bytes
                state.reportPending = true
            }
            guard state.reportPending, state.reportedAt.duration(to: .now) >= Self.reportInterval else { return false }
            state.reportPending = false
            state.reportedAt = .now
            return true
        }
        if report { progress(bytes) }
    }

    /// Reports bytes held back, so a failed attempt records what it sent.
    private func reportHeldBack() {
        let held = state.withLock { state -> Int64? in
            guard state.reportPending else { return nil }
            state.reportPending = false
            return state.written
        }
        if let held { progress(held) }
    }

    private func finish(_ result: Result<UploadResponse, UploadError>) {
        let first = state.withLock { state in
            if case .finished = state.phase { return false }
            state.phase = .finished
            return true
        }
        if first { completion(result) }
    }
}
