import Multipart
import NIOCore
import NIOHTTP1
import Synchronization
import UploadModel
import UploadProtocols

/// One attempt on `HTTPTransport`: leases a connection, runs the exchange on it, gives the
/// connection back, and reports the outcome once — carrying out what its
/// `TransferAttemptStateMachine` decides.
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
    private typealias Machine = TransferAttemptStateMachine<PooledConnection, BodyPump>

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
        var machine: Machine
        /// Body bytes written by the current try.
        var written: Int64 = 0
        /// The exchange for the redirected request, once a redirect was followed.
        var hop: TransferExchange?
    }

    private let pool: ConnectionPool
    private let endpoint: PoolEndpoint
    private let head: HTTPRequestHead
    private let body: RequestBody
    private let chunkSize: Int
    private let connectTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let bodyCompleting: @Sendable () -> Bool
    /// Receives the informational responses (a resumable upload's `104`).
    private let informational: (@Sendable (Int, [HeaderField]) -> Void)?
    private let completion: @Sendable (Result<UploadResponse, UploadError>) -> Void
    private let state: Mutex<State>
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
    ///   - bodyCompleting: Asked before each sending's last body byte (`UploadTransport`).
    ///   - informational: Receives each informational response (status, headers), if given.
    ///   - completion: Receives the outcome, once.
    init(
        pool: ConnectionPool,
        request: UploadRequest,
        chunkSize: Int,
        redirects: [String] = [],
        bodyCompleting: @escaping @Sendable () -> Bool,
        informational: (@Sendable (Int, [HeaderField]) -> Void)? = nil,
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
                completion(ServerAnswerMapping.outcome(result, throughForwardingProxy: proxy))
            }
        }
        self.head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.message.method),
                                    uri: uri, headers: headers)
        self.body = request.message.body
        self.chunkSize = chunkSize
        self.connectTimeout = .nanoseconds(Int64(request.connectTimeout.nanoseconds))
        self.idleTimeout = .nanoseconds(Int64(request.idleTimeout.nanoseconds))
        self.bodyCompleting = bodyCompleting
        self.informational = informational
        self.completion = completion
        self.request = request
        self.redirects = redirects
        self.state = Mutex(State(machine: Machine(target: request.message.target,
                                                  followsRedirects: request.connection.followsRedirects,
                                                  redirects: redirects)))
    }

    /// Sends the request on a pooled connection. Called from the transport's caller.
    func start() {
        send(.first)
    }

    var bytesWritten: Int64 {
        let (written, hop) = state.withLock { ($0.written, $0.hop) }
        return hop?.bytesWritten ?? written
    }

    func cancel() {
        perform(state.withLock { $0.machine.cancel() })
    }

    /// Sends the request: the body from its first byte, on a connection to `endpoint`.
    private func send(_ kind: Try) {
        let pump = BodyPump(body: body, chunkSize: chunkSize, readsSmallBodyNow: kind == .first)
        let lease = pool.makeLeaseID()
        perform(state.withLock { $0.machine.tryBegan(lease: lease, pump: pump) })
    }

    /// Carries out what the machine decided. **Must** be called outside the state's lock.
    private func perform(_ action: Machine.Action) {
        switch action {
        case .none:
            break
        case let .lease(lease, fresh):
            pool.lease(lease, to: endpoint, fresh: fresh, connectTimeout: connectTimeout) { result in
                switch result {
                case let .success(connection):
                    self.perform(self.state.withLock { $0.machine.leaseDelivered(connection, lease: lease) })
                case let .failure(error):
                    self.perform(self.state.withLock { $0.machine.leaseFailed(error, lease: lease) })
                }
            }
        case let .execute(connection, pump, lease):
            execute(on: connection, pump: pump, lease: lease)
        case let .withdraw(lease, pump, outcome):
            pool.cancelLease(lease)
            pump.close()
            completion(outcome)
        case let .closePump(pump, outcome):
            pump.close()
            completion(outcome)
        case let .giveBack(connection, lease):
            pool.release(connection, lease: lease, reusable: true)
        case let .cancelExchange(connection, lease):
            connection.cancel(token: lease.value)
        case .cancelRedirect:
            state.withLock { $0.hop }?.cancel()
        case let .release(connection, lease, reusable, next):
            pool.release(connection, lease: lease, reusable: reusable)
            carryOn(next)
        case let .report(outcome):
            completion(outcome)
        case .startRedirect:
            state.withLock { $0.hop }?.send(.redirect)
        }
    }

    /// What follows an exchange's end, once its connection is back in the pool.
    private func carryOn(_ next: Machine.Next) {
        switch next {
        case let .report(outcome):
            completion(outcome)
        case .resend:
            state.withLock { $0.written = 0 }
            send(.resend)
        case let .follow(target):
            follow(to: target)
        }
    }

    private func execute(on connection: PooledConnection, pump: BodyPump, lease: ConnectionPool.LeaseID) {
        connection.execute(ExchangeHandler.Request(
            token: lease.value, isCancelled: { self.state.withLock { $0.machine.isCancelled } }, head: head,
            bodyLength: body.contentLength, pump: pump, idleTimeout: idleTimeout,
            wrote: { bytes in self.state.withLock { $0.written = bytes } },
            bodyCompleting: bodyCompleting, informational: informational,
            ended: { outcome, fate, mayResend in
                self.perform(self.state.withLock {
                    $0.machine.exchangeEnded(outcome, reusable: fate == .reuse, mayResend: mayResend)
                })
            }
        ))
    }

    /// Sends the request again to `target`, on a new exchange that reports in this one's place.
    private func follow(to target: UploadTarget) {
        var redirected = request
        redirected.message.headers = RedirectPolicy.headers(request.message.headers, from: request.message.target, to: target)
        redirected.message.target = target
        let hop = TransferExchange(pool: pool, request: redirected, chunkSize: chunkSize, redirects: redirects + [target.url],
                                   bodyCompleting: bodyCompleting, informational: informational,
                                   completion: { result in self.hopFinished(result) })
        perform(state.withLock { state in
            let action = state.machine.redirectReady()
            if case .startRedirect = action {
                state.hop = hop
                state.written = 0
            }
            return action
        })
    }

    /// Reports the redirected request's outcome as this exchange's, keeping what it wrote and
    /// letting it go (it holds this exchange until it has reported).
    private func hopFinished(_ result: Result<UploadResponse, UploadError>) {
        let hop = state.withLock { $0.hop }
        let written = hop?.bytesWritten ?? 0
        perform(state.withLock { state in
            state.written = written
            state.hop = nil
            return state.machine.redirectEnded(result)
        })
    }
}
