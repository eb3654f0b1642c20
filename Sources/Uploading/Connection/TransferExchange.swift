import Multipart
import NIOCore
import NIOHTTP1
import Synchronization

/// One attempt on `HTTPTransport`: leases a connection, runs the exchange on it, gives the
/// connection back, and reports the outcome once.
///
/// A reused connection that proves dead before any response byte arrived (the server closed it
/// while it was idle, just as it was reused) is not a failure of the attempt: the request is
/// re-sent once on a new connection, as curl does, because the server answered nothing.
final class TransferExchange: TransportTask {
    private enum Phase: Sendable {
        case leasing(ConnectionPool.LeaseID, BodyPump)
        case running(PooledConnection, token: Int)
        case finished
    }

    private struct State: Sendable {
        var phase: Phase?
        var cancelled = false
        var resent = false
    }

    private let pool: ConnectionPool
    private let endpoint: PoolEndpoint
    private let head: HTTPRequestHead
    private let body: MultipartBody
    private let chunkSize: Int
    private let connectTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let progress: @Sendable (Int64) -> Void
    private let completion: @Sendable (Result<UploadResponse, UploadError>) -> Void
    private let state = Mutex(State())

    /// Prepares an attempt; `start()` sends it.
    init(
        pool: ConnectionPool,
        request: UploadRequest,
        chunkSize: Int,
        progress: @escaping @Sendable (Int64) -> Void,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) {
        self.pool = pool
        self.endpoint = PoolEndpoint(request.target)
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count)
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        self.head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method),
                                    uri: request.target.requestTarget, headers: headers)
        self.body = request.body
        self.chunkSize = chunkSize
        self.connectTimeout = .nanoseconds(Int64(request.connectTimeout.nanoseconds))
        self.idleTimeout = .nanoseconds(Int64(request.idleTimeout.nanoseconds))
        self.progress = progress
        self.completion = completion
    }

    /// Sends the request (on a pooled connection, or a new one when `fresh`).
    func start(fresh: Bool = false) {
        let pump = BodyPump(body: body, chunkSize: chunkSize)
        let lease = pool.makeLeaseID()
        let proceed = state.withLock { state in
            guard !state.cancelled else { return false }
            state.phase = .leasing(lease, pump)
            return true
        }
        guard proceed else {
            pump.close()
            return
        }
        pool.lease(lease, to: endpoint, fresh: fresh, connectTimeout: connectTimeout) { result in
            self.leased(result, pump: pump, token: lease.value)
        }
    }

    func cancel() {
        let phase = state.withLock { state -> Phase? in
            state.cancelled = true
            return state.phase
        }
        switch phase {
        case let .leasing(lease, pump):
            pool.cancelLease(lease)
            pump.close()
            finish(.failure(.transferFailed(reason: .other(message: "cancelled"))))
        case let .running(connection, token):
            connection.cancel(token: token)
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
            pool.release(connection, reusable: true)
            return
        }
        connection.execute(ExchangeHandler.Request(
            token: token, head: head, bodyLength: body.contentLength, pump: pump, idleTimeout: idleTimeout, progress: progress,
            ended: { outcome, fate, reused in self.ended(outcome, fate: fate, reused: reused, on: connection) }
        ))
    }

    private func ended(_ outcome: ExchangeStateMachine.Outcome, fate: ExchangeStateMachine.ConnectionFate,
                       reused: Bool, on connection: PooledConnection) {
        pool.release(connection, reusable: fate == .reuse)
        switch outcome {
        case let .response(response):
            finish(.success(response))
        case let .failed(error, beforeResponse):
            let resend = state.withLock { state in
                guard beforeResponse, reused, !state.resent, !state.cancelled else { return false }
                state.resent = true
                return true
            }
            if resend {
                progress(0)
                start(fresh: true)
            } else {
                finish(.failure(error))
            }
        }
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
