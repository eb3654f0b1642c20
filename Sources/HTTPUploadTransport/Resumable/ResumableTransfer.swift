import Multipart
import Synchronization
import UploadModel
import UploadProtocols

/// One attempt of a request sent as a resumable upload (`ConnectionOptions.resumesUploads`,
/// `--resumable`) on `HTTPTransport`: carries out what its `ResumableUploadStateMachine` decides,
/// each request a `TransferExchange` through the pool, one at a time. The request goes out as it
/// would without resumption (the same body, streamed the same way), and its informational
/// responses reach the machine, which learns the upload's URL from a `104` (and the manager, to
/// journal it: `resumableUploadNamed`); when the connection is lost, a `HEAD` and a `PATCH` with
/// the body's rest from the server's offset go on with it. A request naming an earlier run's
/// upload (`resumableUploadURL`) asks it first.
///
/// Progress counts body bytes written; once resumed, from the offset the server confirmed. The
/// manager's last-byte gate (`bodyCompleting`) is asked by whichever request carries the body's
/// last byte. A cancel aborts the request in flight and
/// reports its failure; nothing is resumed after it. A job cancelled rather than stopped
/// (`cancelDiscardingUpload`) also removes what the server keeps for resuming (`DELETE` on the
/// upload's URL) before it reports.
final class ResumableTransfer: MultiRequestTransfer {
    private struct State: Sendable {
        var machine: ResumableUploadStateMachine
        /// The request in flight.
        var current: TransferExchange?
        /// Where the request in flight's body starts in the whole body.
        var base: Int64 = 0
        /// The body bytes counted when no request is in flight.
        var counted: Int64 = 0
        /// Whether a cancel was asked for, and whether it removes the upload (`DELETE`).
        var cancellation = TransferCancellation()
    }

    private let pool: ConnectionPool
    private let request: UploadRequest
    private let chunkSize: Int
    private let bodyCompleting: @Sendable () -> Bool
    private let completion: @Sendable (Result<UploadResponse, UploadError>) -> Void
    private let state: Mutex<State>

    /// Prepares an attempt; `start()` runs it.
    ///
    /// - Parameters:
    ///   - pool: The connection pool.
    ///   - request: The request, as it would go without resumption.
    ///   - chunkSize: The size of the body chunks written to the connection.
    ///   - bodyCompleting: Asked before the body's last byte is written (`UploadTransport`).
    ///   - completion: Receives the outcome, once.
    init(pool: ConnectionPool, request: UploadRequest, chunkSize: Int, bodyCompleting: @escaping @Sendable () -> Bool,
         completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void) {
        self.pool = pool
        self.request = request
        self.chunkSize = chunkSize
        self.bodyCompleting = bodyCompleting
        self.completion = completion
        state = Mutex(State(machine: ResumableUploadStateMachine(
            message: request.message, resumingAt: request.resumableUploadURL, earlierMayBeComplete: request.resumableUploadMayBeComplete)))
    }

    /// Sends the request. Called from the transport's caller; does not block.
    func start() {
        perform(state.withLock { $0.machine.start() })
    }

    var bytesWritten: Int64 {
        let (base, counted, current) = state.withLock { ($0.base, $0.counted, $0.current) }
        guard let current else { return counted }
        return base + current.bytesWritten
    }

    func recordCancel(discardingUpload: Bool) -> TransferExchange? {
        state.withLock { $0.cancellation.record(discardingUpload: discardingUpload) ? $0.current : nil }
    }

    /// Carries out the machine's action. **Must** be called outside the state's lock.
    private func perform(_ action: ResumableUploadStateMachine.Action) {
        switch action {
        case let .send(message):
            send(message)
        case let .finish(response):
            completion(.success(response))
        case let .fail(error):
            completion(.failure(error))
        }
    }

    /// Starts a request's exchange, unless a cancel came first.
    private func send(_ message: RequestMessage) {
        var gate = bodyCompleting
        if message.method == "HEAD" { gate = { true } }
        let heard: @Sendable (Int, [HeaderField]) -> Void = { status, headers in
            let named = self.state.withLock { state -> String? in
                let before = state.machine.uploadURL
                state.machine.informational(status: status, headers: headers)
                return state.machine.uploadURL == before ? nil : state.machine.uploadURL?.url
            }
            if let named { self.request.resumableUploadNamed?(named) }
        }
        let exchange = TransferExchange(
            pool: pool, request: request(sending: message), chunkSize: chunkSize, bodyCompleting: gate, informational: heard,
            completion: { result in self.exchangeEnded(result) }
        )
        let (cancelled, resumedAt) = state.withLock { state -> (Bool, Int64?) in
            guard !state.cancellation.isRequested else { return (true, nil) }
            state.current = exchange
            state.base = state.machine.offset
            if case let .append(offset) = state.machine.step { return (false, offset) }
            return (false, nil)
        }
        if cancelled { return endCancelled(.failure(.transferFailed(reason: .other(message: "cancelled")))) }
        if let resumedAt { request.resumableUploadResumed?(resumedAt) }
        exchange.start()
    }

    /// A request's exchange ended: its answer or failure goes to the machine; after a cancel the
    /// exchange's own outcome is the attempt's.
    private func exchangeEnded(_ result: Result<UploadResponse, UploadError>) {
        let action = state.withLock { state -> ResumableUploadStateMachine.Action? in
            if let current = state.current { state.counted = state.base + current.bytesWritten }
            state.current = nil
            if state.cancellation.isRequested { return nil }
            switch result {
            case let .success(response): return state.machine.answered(response)
            case let .failure(error): return state.machine.failed(error)
            }
        }
        guard let action else { return endCancelled(result) }
        perform(action)
    }

    /// Reports a cancelled attempt's outcome — after `DELETE` of the upload when the job was
    /// cancelled, the server named the upload and did not answer the request first.
    private func endCancelled(_ result: Result<UploadResponse, UploadError>) {
        let removal = state.withLock { state -> RequestMessage? in
            guard state.cancellation.discardsUpload, case .failure = result else { return nil }
            state.cancellation.discardsUpload = false
            return state.machine.cancellationRequest()
        }
        guard let removal else { return completion(result) }
        TransferExchange(pool: pool, request: request(sending: removal), chunkSize: chunkSize, bodyCompleting: { true },
                         completion: { _ in self.completion(result) }).start()
    }

    /// The attempt's request with another message (the job's timeouts and connection options).
    private func request(sending message: RequestMessage) -> UploadRequest {
        var exchangeRequest = request
        exchangeRequest.message = message
        return exchangeRequest
    }
}
