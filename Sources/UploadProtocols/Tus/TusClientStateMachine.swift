import FoundationEssentials
import Multipart
import UploadModel

/// One attempt of a tus 1.0 upload, as a state machine: events in (`start`, an answer, a failure,
/// a cancel), the next step out — a request to send, the response that ends the attempt, an
/// error, or nothing more. No I/O: the executor (`TusTransfer` in HTTPUploadTransport) sends the
/// requests, one at a time, and reads `uploadURL`, `offset` and `notes` after each event.
///
/// ```
/// start ─▶ discover (OPTIONS) ─┬─(no upload yet)─▶ create (POST, first chunk if
///                              │                    creation-with-upload) ──┐
///                              └─(upload URL known)─▶ locate (HEAD) ──────┤
///              ┌──────────────────────────────────────────────────────────┘
///              ▼
///    offset = length ─▶ finish(response)      offset < length ─▶ append (PATCH at offset) ─┐
///              ▲                                                                        │
///              └──────────────── (204, Upload-Offset) ◀──────────────────────────────────┘
/// 409/460 on a PATCH ─▶ locate; 404/410 on the upload URL ─▶ create a new one (once);
/// 423 (locked by a request the server still holds) ─▶ the same request (a PATCH: locate) later;
/// cancel ─▶ terminate (DELETE) when an upload URL is known ─▶ stop
/// 507 on a PATCH ─▶ terminate (DELETE), where termination is offered ─▶ finish(the 507)
/// ```
///
/// The server's offset is the truth: an attempt that ends without an answer is followed by one
/// whose `plan.uploadURL` is the upload, so it asks `HEAD` first and sends only what is missing;
/// an upload already complete finishes without sending a byte. Nothing is ever "may have
/// arrived". A status the machine has no use for ends the attempt with that response, which the
/// manager classifies (retrying 5xx, honouring `Retry-After`).
public struct TusClientStateMachine: Sendable {
    /// What the executor does next.
    public enum Action: Sendable, Hashable {
        /// Send this request and report its answer (`answered`) or failure (`failed`).
        case send(TusRequest)
        /// Send this request after `delay` (the upload is locked by a request the server still
        /// holds, one cut off a moment ago), then as `send`.
        case sendAfter(TusRequest, delay: Duration)
        /// The attempt ends with this response: 2xx when the upload is complete, else a status
        /// the manager classifies.
        case finish(UploadResponse)
        /// The attempt ends with this error.
        case fail(UploadError)
        /// Nothing more to send: the cancel is done.
        case stop
    }

    private enum State: Sendable, Hashable {
        /// Before `start`.
        case idle
        /// A request is out; its answer or failure is awaited.
        case awaiting(TusRequest)
        /// The attempt ended (finished, failed or stopped).
        case ended
    }

    /// How many chunks in a row the server may refuse (409, 460) before the attempt fails.
    public static let maximumRefusals = 3
    /// How long to wait before asking an upload that answered 423 Locked again the first time;
    /// each further wait doubles, up to 2 s (a throttled server drains a cut request's buffered
    /// bytes before it lets go of the upload).
    public static let lockedRetryDelay = Duration.milliseconds(250)
    /// How many 423 answers in a row an attempt waits out (about 35 s) before it ends with the answer.
    public static let maximumLockedWaits = 20

    /// What is uploaded.
    public let plan: TusUploadPlan
    /// The upload's URL, once known (from the plan, or created).
    public private(set) var uploadURL: UploadTarget?
    /// The bytes the server confirmed it holds.
    public private(set) var offset: Int64 = 0
    /// Facts for the details, oldest first.
    public private(set) var notes: [TusNote] = []
    /// The next chunk's size.
    public private(set) var chunkSizing: TusChunkSizing
    /// What the server said about itself, once discovered.
    public private(set) var capabilities: TusServerCapabilities?
    private var state = State.idle
    /// Whether a vanished upload was started anew already (it is done once per attempt).
    private var restarted = false
    /// Chunks refused in a row.
    private var refusals = 0
    /// 423 answers in a row.
    private var lockedWaits = 0
    /// The answer the attempt ends with once the `DELETE` after it is answered (a 507: the
    /// server cannot store the upload, so nothing of it is left there).
    private var endingAnswer: UploadResponse?

    /// Creates the machine for an attempt.
    ///
    /// - Parameter plan: The upload; its `uploadURL` is asked for its offset before anything is sent.
    public init(plan: TusUploadPlan) {
        self.plan = plan
        self.uploadURL = plan.uploadURL
        self.chunkSizing = plan.chunkSizeFollowsLink
            ? TusChunkSizing(followingLinkFrom: plan.chunkSize) : TusChunkSizing(fixed: plan.chunkSize)
    }

    /// The file's length: the upload's `Upload-Length`.
    public var length: Int64 { plan.file.size }

    /// Starts the attempt.
    ///
    /// - Returns: `OPTIONS` to the creation URL.
    public mutating func start() -> Action {
        precondition(state == .idle, "an attempt starts once")
        return send(TusRequest(purpose: .discover, target: plan.creationURL, headers: [], range: 0..<0))
    }

    /// The server answered the request in flight.
    ///
    /// - Parameters:
    ///   - response: The answer.
    ///   - elapsed: From the request's start to its answer, when measured (it sizes the next
    ///     chunks, ``TusChunkSizing``).
    /// - Returns: What to do next.
    public mutating func answered(_ response: UploadResponse, after elapsed: Duration? = nil) -> Action {
        guard case let .awaiting(request) = state else { preconditionFailure("an answer without a request") }
        if let elapsed, response.isSuccess, !request.range.isEmpty, let confirmed = Self.offset(in: response),
           confirmed > request.range.lowerBound {
            chunkSizing.chunkMoved(bytes: confirmed - request.range.lowerBound, in: elapsed)
        }
        if response.status == 423, request.purpose != .discover, request.purpose != .create,
           lockedWaits < Self.maximumLockedWaits {
            lockedWaits += 1
            let again = request.purpose == .append ? locateRequest(request.target) : request
            state = .awaiting(again)
            return .sendAfter(again, delay: min(.seconds(2), Self.lockedRetryDelay * (1 << min(lockedWaits - 1, 3))))
        }
        lockedWaits = 0
        switch request.purpose {
        case .discover: return discovered(response)
        case .create: return created(response, request: request)
        case .locate: return located(response)
        case .append: return appended(response, request: request)
        case .terminate:
            state = .ended
            if let endingAnswer { return finish(endingAnswer) }
            return .stop
        }
    }

    /// The request in flight failed without an answer (connection lost, timeout, a file that
    /// changed).
    ///
    /// - Parameter error: The failure.
    /// - Returns: `fail` (the next attempt asks the server where the upload stands), or `stop`
    ///   for a failed `DELETE`.
    public mutating func failed(_ error: UploadError) -> Action {
        guard case let .awaiting(request) = state else { preconditionFailure("a failure without a request") }
        state = .ended
        guard request.purpose == .terminate else { return .fail(error) }
        if let endingAnswer { return finish(endingAnswer) }
        return .stop
    }

    /// The attempt was aborted: the job was cancelled (`discardingUpload`), or stopped. The
    /// executor **must** call this only with no request in flight (after the one in flight was
    /// aborted and reported, its answer given to `answered` first, so a created upload is known).
    ///
    /// - Parameter discardingUpload: Whether the upload is removed (a cancelled job) rather than
    ///   kept to be resumed (a stopped one).
    /// - Returns: `DELETE` to the upload URL when discarding, there is one and the server may
    ///   offer `termination` (or was not asked yet); else `stop`.
    public mutating func cancel(discardingUpload: Bool) -> Action {
        guard discardingUpload, state != .ended, let uploadURL,
              capabilities.map({ $0.offers("termination") }) ?? true else {
            state = .ended
            return .stop
        }
        return send(TusRequest(purpose: .terminate, target: uploadURL, headers: [Self.resumable], range: 0..<0))
    }

    // MARK: - Answers

    private mutating func discovered(_ response: UploadResponse) -> Action {
        guard response.isSuccess, let capabilities = TusServerCapabilities(response) else {
            if Self.isTransient(response.status) { return finish(response) }
            return fail(.notATusServer(url: plan.creationURL.url, status: response.status))
        }
        self.capabilities = capabilities
        guard capabilities.versions.contains("1.0.0") else { return fail(.versionUnsupported(offered: capabilities.versions)) }
        if let maximum = capabilities.maximumSize, length > maximum {
            return fail(.fileTooLarge(size: length, maximum: maximum))
        }
        if let uploadURL { return locate(uploadURL) }
        return create()
    }

    private mutating func created(_ response: UploadResponse, request: TusRequest) -> Action {
        guard response.isSuccess else { return finish(response) }
        let location = response.value(forHeader: "Location")
        guard let location, let url = RedirectPolicy.resolve(location, against: plan.creationURL) else {
            return fail(.locationUnusable(location: location))
        }
        uploadURL = url
        offset = 0
        notes.append(.created(url: url.url))
        guard !request.range.isEmpty else { return next(after: response) }
        // creation-with-upload: the answer says how much of the first chunk the server kept; a
        // server that does not say is asked.
        guard let confirmed = Self.offset(in: response) else { return locate(url) }
        guard request.range.lowerBound...request.range.upperBound ~= confirmed else {
            return fail(.offsetInvalid(request: "POST", offset: confirmed, expected: 0, length: length))
        }
        offset = confirmed
        return next(after: response)
    }

    private mutating func located(_ response: UploadResponse) -> Action {
        if response.status == 404 || response.status == 410 { return restart(status: response.status) }
        guard response.isSuccess else { return finish(response) }
        guard let url = uploadURL else { preconditionFailure("HEAD without an upload URL") }
        if let serverLength = response.value(forHeader: "Upload-Length").flatMap(Int64.init), serverLength != length {
            return fail(.lengthMismatch(url: url.url, serverLength: serverLength, fileSize: length))
        }
        guard let confirmed = Self.offset(in: response), (0...length) ~= confirmed else {
            return fail(.offsetInvalid(request: "HEAD", offset: Self.offset(in: response), expected: offset, length: length))
        }
        offset = confirmed
        notes.append(.resumed(offset: confirmed, length: length))
        return next(after: response)
    }

    private mutating func appended(_ response: UploadResponse, request: TusRequest) -> Action {
        switch response.status {
        case 404, 410:
            return restart(status: response.status)
        case 409, 460:
            refusals += 1
            guard refusals < Self.maximumRefusals, let uploadURL else {
                return fail(.chunksRefused(count: refusals, offset: offset, status: response.status))
            }
            return locate(uploadURL)
        case 507:
            // The server's storage is full: remove what it keeps of the upload, then end with its
            // answer (the manager does not retry a 507).
            guard let uploadURL, capabilities?.offers("termination") == true else { return finish(response) }
            endingAnswer = response
            return send(TusRequest(purpose: .terminate, target: uploadURL, headers: [Self.resumable], range: 0..<0))
        default:
            guard response.isSuccess else { return finish(response) }
        }
        guard let confirmed = Self.offset(in: response),
              confirmed > request.range.lowerBound, confirmed <= request.range.upperBound else {
            return fail(.offsetInvalid(request: "PATCH", offset: Self.offset(in: response),
                                       expected: request.range.lowerBound, length: length))
        }
        refusals = 0
        offset = confirmed
        return next(after: response)
    }

    // MARK: - Steps

    /// Finishes when the server holds the whole file, else sends the next chunk.
    private mutating func next(after response: UploadResponse) -> Action {
        guard offset < length else { return finish(response) }
        guard let uploadURL else { preconditionFailure("a chunk without an upload URL") }
        let range = offset..<min(length, offset + chunkSizing.size)
        return send(TusRequest(
            purpose: .append, target: uploadURL,
            headers: [Self.resumable, HeaderField(name: "Upload-Offset", value: String(offset))],
            range: range, checksum: plan.sendsChecksums ? capabilities?.checksum : nil
        ))
    }

    private mutating func create() -> Action {
        guard capabilities?.offers("creation") == true else { return fail(.creationUnsupported(url: plan.creationURL.url)) }
        var headers = [Self.resumable, HeaderField(name: "Upload-Length", value: String(length))]
        if !plan.metadata.isEmpty { headers.append(HeaderField(name: "Upload-Metadata", value: plan.metadata)) }
        let withUpload = plan.sendsDataInCreation && capabilities?.offers("creation-with-upload") == true
        let range = withUpload ? 0..<min(length, chunkSizing.size) : 0..<0
        return send(TusRequest(purpose: .create, target: plan.creationURL, headers: headers, range: range))
    }

    private mutating func locate(_ url: UploadTarget) -> Action {
        send(locateRequest(url))
    }

    private func locateRequest(_ url: UploadTarget) -> TusRequest {
        TusRequest(purpose: .locate, target: url, headers: [Self.resumable], range: 0..<0)
    }

    /// The upload is gone: a new one, from byte 0, once per attempt.
    private mutating func restart(status: Int) -> Action {
        guard let url = uploadURL else { preconditionFailure("a vanished upload without a URL") }
        guard !restarted else { return fail(.uploadVanished(url: url.url, status: status)) }
        restarted = true
        notes.append(.restarted(url: url.url, status: status))
        uploadURL = nil
        offset = 0
        refusals = 0
        return create()
    }

    private mutating func send(_ request: TusRequest) -> Action {
        state = .awaiting(request)
        return .send(request)
    }

    private mutating func finish(_ response: UploadResponse) -> Action {
        state = .ended
        return .finish(response)
    }

    private mutating func fail(_ reason: UploadError.TusReason) -> Action {
        state = .ended
        return .fail(.tusFailed(reason: reason))
    }

    /// `Tus-Resumable: 1.0.0`, on every request but `OPTIONS` (tus 1.0 leaves it off there).
    private static let resumable = HeaderField(name: "Tus-Resumable", value: "1.0.0")

    /// A status the manager retries (408, 429, 5xx but 507).
    private static func isTransient(_ status: Int) -> Bool {
        status == 408 || status == 429 || ((500...599).contains(status) && status != 507)
    }

    /// The answer's `Upload-Offset`, if it is a number.
    private static func offset(in response: UploadResponse) -> Int64? {
        response.value(forHeader: "Upload-Offset").flatMap { Int64($0.trimmingWhitespace()) }
    }
}
