import Hummingbird
import Multipart
import NIOCore
import NIOPosix

/// Answers `POST /upload`, `/upload/...` and `/multiupload`: streams the multipart body through
/// a ``FormDataReader`` and answers with the ``UploadRecord`` as JSON, or with
/// `{"error": "..."}` and a 4xx/5xx status; injects the faults of the ``FaultPlan``.
///
/// Whenever a request does not end in a stored upload, every file it created is deleted.
///
/// A request with an `Idempotency-Key` (``IdempotencyKeyStore``) is answered with the key named
/// back, which tells the client this server honours keys; a repeat of a stored upload's key is
/// read whole, stores nothing and gets the first answer (`Idempotent-Replayed: true`), before any
/// fault is drawn; a repeat while the first is being received gets 409, one for another path or
/// length 422.
struct UploadHandler: Sendable {
    /// What happened to one upload request.
    enum Outcome {
        /// Stored; answer with the record and this status.
        case stored(UploadRecord, status: Int)
        /// Refused; answer with the error. `closeConnection` closes the connection after the
        /// answer instead of reading whatever is left of the body.
        case failed(ReceiverError, closeConnection: Bool)
        /// The connection was closed on purpose (`--drop-rate`); there is nothing to answer.
        case dropped
        /// The connection was cut (or dropped) mid-body and the resumable upload waits for the
        /// `PATCH` that goes on with it; the error says how its request ended.
        case parked(ReceiverError)
    }

    let directory: String
    let limits: ReceiverLimits
    let faults: FaultInjector
    let store: UploadStore
    let pool: NIOThreadPool
    /// Set when the server begins to stop; a stalled request then lets its connection go.
    let stopping: StoppingFlag
    /// The upload files open; a file part that finds none free is answered 503.
    let slots: UploadSlots
    /// The `Idempotency-Key`s of stored uploads, and of those being received.
    let keys: IdempotencyKeyStore
    /// The resumable uploads being received, parked or complete.
    let resumptions: ResumableUploads
    /// Whether requests that ask are offered resumable uploads (`--no-resumable`: not).
    let offersResumableUploads: Bool

    /// Handles one upload request.
    ///
    /// - Parameters:
    ///   - request: The request; its body is read here.
    ///   - context: The receiver's request context.
    /// - Returns: The response to send (ignored when the connection was dropped or stalled).
    func handle(_ request: Request, context: ReceiverRequestContext) async -> Response {
        if faults.plan.stall {
            return await stall(context)
        }
        // The resumable upload this request was made (and told of, in a 104), if any.
        let resumption = resumptions.takeAssignment(of: context.channel)
        guard let value = request.headers[.idempotencyKey] else {
            return await answer(request, context: context, key: nil, resumption: resumption)
        }
        guard let key = IdempotencyKeyHeader.key(inValue: value) else {
            if let resumption { _ = resumptions.remove(resumption) }
            return failure(.requestRejected(reason: .invalidIdempotencyKey), closeConnection: false, context: context)
        }
        let path = request.uri.path
        let fingerprint = IdempotencyKeyStore.Fingerprint(
            path: path, contentLength: request.headers[.contentLength].flatMap { Int64($0) })
        var response: Response
        let claim = keys.claim(key, fingerprint: fingerprint)
        if case .fresh = claim {} else if let resumption { _ = resumptions.remove(resumption) }
        switch claim {
        case .fresh:
            response = await answer(request, context: context, key: key, resumption: resumption)
        case .replay(let first):
            response = await replay(first, request, context: context)
        case .inUse:
            response = failure(.requestRejected(reason: .idempotencyKeyInUse), closeConnection: false, context: context)
            response.headers[.retryAfter] = "1"
        case .reused:
            response = failure(.requestRejected(reason: .idempotencyKeyReused), closeConnection: false, context: context)
        }
        response.headers[.idempotencyKey] = IdempotencyKeyHeader.value(of: key)
        return response
    }

    /// Receives an upload and answers it: a resumable one (``ResumableUploads``, its ID given by
    /// `resumption`) is parked when its connection is cut.
    private func answer(_ request: Request, context: ReceiverRequestContext, key: String?, resumption: String?) async -> Response {
        let outcome: Outcome
        switch begin(request, key: key) {
        case .refused(let refused):
            settleKey(key, after: refused)
            if let resumption { _ = resumptions.remove(resumption) }
            outcome = refused
        case .session(let session):
            if let resumption { resumptions.adopt(session, for: resumption) }
            outcome = await settle(session, await feed(session, request.body, context: context), resumption: resumption)
        }
        return await respond(outcome, context: context)
    }

    /// Completes or releases an upload's `Idempotency-Key` once it ended as `outcome`: completed
    /// with a stored upload's answer, kept while the upload is parked, else released.
    func settleKey(_ key: String?, after outcome: Outcome) {
        guard let key else { return }
        switch outcome {
        case .stored(let record, let status): keys.complete(key, with: IdempotencyKeyStore.Answer(status: status, record: record))
        case .parked: break
        case .failed, .dropped: keys.release(key)
        }
    }

    /// The response for an upload that ended as `outcome`, after `--delay`, logged.
    func respond(_ outcome: Outcome, context: ReceiverRequestContext) async -> Response {
        if faults.plan.delayMilliseconds > 0, !isDropped(outcome) {
            await delay(faults.plan.delayMilliseconds, answering: context.channel)
        }
        switch outcome {
        case .stored(let record, let status):
            context.logDetails.withState { $0.record = record }
            return JSONBody.response(status: status, record)
        case .failed(let error, let closeConnection):
            return failure(error, closeConnection: closeConnection, context: context)
        case .dropped:
            context.logDetails.withState {
                $0.statusOverride = 0
                $0.error = "connection dropped part-way through the body (--drop-rate)"
            }
            return Response(status: .internalServerError)
        case .parked(let error):
            var response = failure(error, closeConnection: true, context: context)
            context.logDetails.withState { $0.error = error.description + " The upload waits to be resumed." }
            if !context.channel.isActive { context.logDetails.withState { $0.statusOverride = 0 } }
            response.headers[.uploadDraftInteropVersion] = ResumableUploads.interopVersion
            return response
        }
    }

    /// The answer to a refused request, logged; `closeConnection` closes the connection after
    /// it instead of reading whatever is left of the body.
    func failure(_ error: ReceiverError, closeConnection: Bool, context: ReceiverRequestContext) -> Response {
        context.logDetails.withState { $0.error = error.description }
        if closeConnection {
            // Hummingbird's connection handler closes the connection once this response is
            // written (and ConnectionShutdown makes that close reach the client).
            context.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        var response = JSONBody.error(status: error.httpStatus, error.description)
        if case .requestRejected(.tooManyUploads) = error { response.headers[.retryAfter] = "1" }
        return response
    }

    /// Answers a repeat of a stored upload's key with its first answer, after reading (and
    /// dropping) the body, so the connection stays usable; stores nothing.
    private func replay(_ first: IdempotencyKeyStore.Answer, _ request: Request, context: ReceiverRequestContext) async -> Response {
        let expectedLength = request.headers[.contentLength].flatMap { Int64($0) }
        var bytesRead: Int64 = 0
        var iterator = request.body.makeAsyncIterator()
        do throws(ReceiverError) {
            while let chunk = try await iterator.nextChunk(received: bytesRead, expected: expectedLength) {
                bytesRead += Int64(chunk.readableBytes)
                if bytesRead > limits.maxBodySize {
                    return failure(.requestRejected(reason: .bodyTooLarge(limit: limits.maxBodySize)), closeConnection: true,
                                   context: context)
                }
            }
        } catch {
            return failure(error, closeConnection: true, context: context)
        }
        let total = bytesRead
        context.logDetails.withState {
            $0.bytes = total
            $0.replayed = true
        }
        var response = JSONBody.response(status: first.status, first.record)
        response.headers[.idempotentReplayed] = "true"
        return response
    }

    /// Whether a request that asks for `100 Continue` should get it: only uploads that will be
    /// read, so a client that waits sends no body the receiver would refuse anyway.
    ///
    /// - Parameter head: The request head.
    /// - Returns: `true` to send `100 Continue` before the handler runs.
    func shouldSendContinue(_ head: HTTPRequest) -> Bool {
        guard head.method == .post, let expect = head.headerFields[.expect],
            expect.lowercased() == "100-continue", !faults.plan.stall, slots.hasRoom
        else { return false }
        return Self.isUploadPath(Self.path(of: head)) && boundary(of: head.headerFields) != nil
    }

    /// A request's path without its query.
    static func path(of head: HTTPRequest) -> String {
        (head.path ?? "").split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// Whether `path` is one of the upload routes.
    ///
    /// - Parameter path: The request path without its query.
    /// - Returns: `true` for `/upload`, `/upload/...` and `/multiupload` (trailing slash allowed).
    static func isUploadPath(_ path: String) -> Bool {
        path == "/upload" || path.hasPrefix("/upload/") || path == "/multiupload" || path == "/multiupload/"
    }

    private func isDropped(_ outcome: Outcome) -> Bool {
        switch outcome {
        case .dropped, .parked: return true
        case .stored, .failed: return false
        }
    }

    /// The boundary of a `multipart/form-data` content type, if that is what the fields say.
    func boundary(of fields: HTTPFields) -> String? {
        guard let contentType = fields[.contentType] else { return nil }
        let parsed = HeaderValue(parsing: contentType)
        guard parsed.value.lowercased() == "multipart/form-data", let boundary = parsed.parameter("boundary"),
            !boundary.isEmpty, boundary.utf8.count <= 200
        else { return nil }
        return boundary
    }

    /// Waits `milliseconds` before the answer (`--delay`), or less: until the client goes away
    /// or the server stops (a graceful stop would otherwise wait for the whole delay).
    private func delay(_ milliseconds: Int, answering channel: any Channel) async {
        await hold(channel, until: ContinuousClock.now + .milliseconds(milliseconds))
    }

    /// Waits while the client is connected and the server runs, until `deadline` if there is
    /// one. The server's flag is checked as well as cancellation, because Hummingbird may finish
    /// shutting down before it cancels the tasks of connections that are still open.
    private func hold(_ channel: any Channel, until deadline: ContinuousClock.Instant? = nil) async {
        while channel.isActive, !stopping.isSet, !Task.isCancelled {
            var step = Duration.milliseconds(50)
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return }
                step = min(left, step)
            }
            try? await Task.sleep(for: step)
        }
    }

    /// `--stall`: reads nothing and answers nothing until the client goes away or the server stops.
    private func stall(_ context: ReceiverRequestContext) async -> Response {
        context.logDetails.withState {
            $0.statusOverride = 0
            $0.error = "stalled (--stall): nothing read, nothing answered"
        }
        let channel = context.channel
        await withTaskCancellationHandler {
            await hold(channel)
            channel.close(promise: nil)
        } onCancel: {
            channel.close(promise: nil)
        }
        return Response(status: .serviceUnavailable)
    }
}
