import Dispatch
import FileSystem
import Multipart
import Synchronization
import UploadModel
import UploadProtocols

/// One attempt of a tus upload on `HTTPTransport`: carries out what its `TusClientStateMachine`
/// decides, each request a `TransferExchange` through the pool (so it gets the pool's
/// connections, proxies, TLS, timeouts and the re-send of a dead reused connection), one at a
/// time, each chunk a `RequestBody` file range under `application/offset+octet-stream`, streamed
/// by `BodyPump` in constant memory.
///
/// Progress and `bytesWritten` are the bytes the server **confirmed** (`Upload-Offset`), so speed
/// and ETA never count bytes a cut connection lost. The manager's last-byte gate is never asked:
/// the server's offset settles what arrived, so nothing of a tus upload "may have arrived".
///
/// A cancel aborts the request in flight; once it has ended (an answer that came first is still
/// read, so an upload just created is known and kept in the checkpoint), the attempt reports
/// cancelled — after `DELETE` of the upload when the job was cancelled (not stopped) and the
/// server offers termination.
final class TusTransfer: MultiRequestTransfer {
    private struct State: Sendable {
        var machine: TusClientStateMachine
        /// The request in flight.
        var current: TransferExchange?
        /// When the request in flight started (its answer's time sizes the next chunks).
        var currentStarted: ContinuousClock.Instant?
        /// Whether a cancel was asked for, and whether it removes the upload (`DELETE`).
        var cancellation = TransferCancellation()
        /// Whether the machine heard of the cancel.
        var cancelHandled = false
        /// The checkpoint last reported to `request.tusCheckpointed`.
        var checkpoint: TusCheckpoint?
    }

    private let pool: ConnectionPool
    private let request: UploadRequest
    /// The file uploaded (`request.tus.file`).
    private let file: FileSnapshot
    private let chunkSize: Int
    private let completion: @Sendable (Result<UploadResponse, UploadError>) -> Void
    private let state: Mutex<State>
    /// The chunks' `Upload-Checksum`s, each hashed while the chunk before it is sent (at the
    /// sizes it may have).
    private let checksums: TusChecksumAhead

    /// Prepares an attempt; `start()` runs it.
    ///
    /// - Parameters:
    ///   - pool: The connection pool.
    ///   - request: The request; its `tus` plan **must** be set.
    ///   - chunkSize: The size of the body chunks written to the connection.
    ///   - completion: Receives the outcome, once.
    init(pool: ConnectionPool, request: UploadRequest, chunkSize: Int,
         completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void) {
        guard let plan = request.tus else { preconditionFailure("a tus transfer without a tus plan") }
        self.pool = pool
        self.request = request
        self.file = plan.file
        self.checksums = TusChecksumAhead(file: plan.file)
        self.chunkSize = chunkSize
        self.completion = completion
        let machine = TusClientStateMachine(plan: plan)
        self.state = Mutex(State(machine: machine))
    }

    /// Sends the first request. Called from the transport's caller; does not block.
    func start() {
        perform(state.withLock { $0.machine.start() })
    }

    var bytesWritten: Int64 {
        state.withLock { $0.machine.offset }
    }

    func recordCancel(discardingUpload: Bool) -> TransferExchange? {
        state.withLock { $0.cancellation.record(discardingUpload: discardingUpload) ? $0.current : nil }
    }

    /// Reports where the upload stands, then carries out the machine's action — once the journal
    /// holds the upload URL when it is new, so no byte goes to an upload a kill could make Ferry
    /// forget. **Must** be called outside the state's lock.
    private func perform(_ action: TusClientStateMachine.Action) {
        if reportCheckpoint(), let written = request.tusCheckpointWritten {
            return written { self.carryOut(action) }
        }
        carryOut(action)
    }

    private func carryOut(_ action: TusClientStateMachine.Action) {
        switch action {
        case let .sendAfter(tusRequest, delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(delay / .milliseconds(1)))) {
                self.perform(.send(tusRequest))
            }
        case let .send(tusRequest):
            if let algorithm = tusRequest.checksum {
                checksums.header(algorithm, range: tusRequest.range) { result in
                    switch result {
                    case let .success(value): self.launch(tusRequest, checksum: value)
                    case let .failure(error): self.perform(self.state.withLock { $0.machine.failed(error) })
                    }
                }
            } else {
                launch(tusRequest, checksum: nil)
            }
        case let .finish(response):
            completion(.success(response))
        case let .fail(error):
            completion(.failure(error))
        case .stop:
            completion(.failure(.transferFailed(reason: .other(message: "cancelled"))))
        }
    }

    /// Starts a request's exchange, unless a cancel came first (then the machine hears of it).
    private func launch(_ tusRequest: TusRequest, checksum: String?) {
        let exchange = TransferExchange(
            pool: pool, request: uploadRequest(for: tusRequest, checksum: checksum), chunkSize: chunkSize,
            bodyCompleting: { true },
            completion: { result in self.exchangeEnded(result) }
        )
        let cancelled = state.withLock { state -> TusClientStateMachine.Action? in
            if state.cancellation.isRequested, !state.cancelHandled, tusRequest.purpose != .terminate {
                state.cancelHandled = true
                return state.machine.cancel(discardingUpload: state.cancellation.discardsUpload)
            }
            state.current = exchange
            state.currentStarted = .now
            return nil
        }
        if let cancelled { return perform(cancelled) }
        exchange.start()
        if let algorithm = tusRequest.checksum, tusRequest.range.upperBound < file.size {
            // The server's answer most likely confirms the whole chunk: the next one is hashed
            // meanwhile, in one pass to both the size the machine holds now and the size this
            // chunk's time most likely leads to (a size neither covers is hashed after the answer).
            let next = tusRequest.range.upperBound
            let sizing = state.withLock { $0.machine.chunkSizing }
            checksums.prepare(algorithm, from: next, to: [sizing.size, sizing.predictedNextSize].map { min(file.size, next + $0) })
        }
    }

    /// A request's exchange ended: its answer or failure goes to the machine — after a cancel,
    /// an answer is read first (it may name the upload), then the machine hears of the cancel.
    private func exchangeEnded(_ result: Result<UploadResponse, UploadError>) {
        perform(state.withLock { state in
            state.current = nil
            let elapsed = state.currentStarted.map { ContinuousClock.now - $0 }
            state.currentStarted = nil
            if state.cancellation.isRequested, !state.cancelHandled {
                state.cancelHandled = true
                if case let .success(response) = result { _ = state.machine.answered(response) }
                return state.machine.cancel(discardingUpload: state.cancellation.discardsUpload)
            }
            switch result {
            case let .success(response): return state.machine.answered(response, after: elapsed)
            case let .failure(error): return state.machine.failed(error)
            }
        })
    }

    /// Reports where the upload stands when it changed (the confirmed offset is `bytesWritten`).
    ///
    /// - Returns: Whether the checkpoint reported names an upload URL the journal did not have.
    private func reportCheckpoint() -> Bool {
        let (checkpoint, newURL) = state.withLock { state -> (TusCheckpoint?, Bool) in
            let machine = state.machine
            let now = TusCheckpoint(uploadURL: machine.uploadURL?.url, offset: machine.offset, file: file,
                                    notes: (request.tus?.earlierNotes ?? []) + machine.notes)
            guard now != state.checkpoint, machine.uploadURL != nil || !machine.notes.isEmpty else { return (nil, false) }
            let newURL = now.uploadURL != nil && now.uploadURL != (state.checkpoint?.uploadURL ?? request.tus?.uploadURL?.url)
            state.checkpoint = now
            return (now, newURL)
        }
        if let checkpoint { request.tusCheckpointed?(checkpoint) }
        return newURL
    }

    /// The exchange's request for a tus request (`TusRequest.message`), without a plan of its own.
    private func uploadRequest(for tusRequest: TusRequest, checksum: String?) -> UploadRequest {
        var exchangeRequest = request
        exchangeRequest.message = tusRequest.message(sharing: request.message, file: file, checksum: checksum)
        exchangeRequest.tus = nil
        exchangeRequest.tusCheckpointed = nil
        exchangeRequest.tusCheckpointWritten = nil
        return exchangeRequest
    }
}
