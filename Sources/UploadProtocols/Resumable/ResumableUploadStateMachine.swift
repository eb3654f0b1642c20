import Multipart
import UploadModel

/// One attempt of a request sent as a resumable upload over HTTP (`draft-ietf-httpbis-resumable-upload`,
/// interop version 6; `--resumable`), without I/O: answers and failures in, requests to send
/// and the outcome out.
///
/// The request goes out as it is (`FormBuilder` gave it ``ResumableUploadFields/creationFields``). A server
/// that supports the draft answers at once with `104 Upload Resumption Supported` and a
/// `Location`, the upload's own URL, then reads the body and answers as it always does. When the
/// connection is lost before that answer and a `Location` was heard, the attempt is not lost:
/// `HEAD` on the upload's URL says how many bytes the server has (`Upload-Offset`), and `PATCH`
/// sends the body's rest from there (`Upload-Offset`, `Upload-Complete: ?1`,
/// `application/partial-upload`); its answer is the request's answer, with the offsets it went on
/// from (`UploadResponse.resumedAt`). A lost `PATCH` is resumed
/// the same way, as long as each resumption moves the offset on (at most
/// ``maximumResumptionsWithoutProgress`` in a row that do not).
///
/// An upload an earlier run began with this very body (`resumingAt`, from the journal) is asked
/// first: `HEAD`, then `PATCH` of the rest. When the server no longer has it, the request is sent
/// whole as a new upload — unless the earlier attempt may have completed it
/// (`earlierMayBeComplete`: its whole body went out), when the server forgetting it proves
/// nothing and the attempt fails as "may have arrived".
///
/// A `HEAD` that says the upload is complete settles a lost answer: the upload arrived, and the
/// attempt finishes with that `HEAD`'s answer marked ``UploadResponse/answerWasLost``. What the
/// server cannot vouch for is never resent: when the upload's URL no longer answers with an
/// offset (404: the server finished and forgot it, or restarted), the attempt fails with the
/// connection's first failure, which the manager treats as it would without resumption ("may
/// have arrived" when the whole body went out, unless its `Idempotency-Key` settles it).
public struct ResumableUploadStateMachine: Sendable {
    /// What the request in flight is.
    public enum Step: Sendable, Equatable {
        /// The request itself (the upload's creation).
        case upload
        /// `HEAD` on the upload's URL.
        case locate
        /// `PATCH` with the body from `offset`.
        case append(offset: Int64)
    }

    /// What the driver must do.
    public enum Action: Sendable {
        /// Send `message` (its step is ``step``).
        case send(RequestMessage)
        /// The request's answer.
        case finish(UploadResponse)
        /// The attempt failed.
        case fail(UploadError)
    }

    /// How many resumptions in a row may end without the server's offset moving on.
    public static let maximumResumptionsWithoutProgress = 3
    /// The body of a `HEAD` and a `DELETE`.
    private static let noBody = RequestBody(segments: [], contentType: "")

    private let message: RequestMessage
    /// The upload's URL, from the `104`'s `Location`.
    public private(set) var uploadURL: UploadTarget?
    /// The request in flight.
    public private(set) var step = Step.upload
    /// The offsets the server confirmed when the upload was resumed, in order.
    public private(set) var resumedAt: [Int64] = []
    /// The first failure of the connection, reported when the upload cannot be resumed.
    private var firstFailure: UploadError?
    private var resumptionsWithoutProgress = 0
    /// Whether the attempt began by asking an earlier run's upload (until it is answered).
    private var askingEarlierUpload = false
    /// Whether the earlier attempt may have completed the upload (its whole body went out).
    private let earlierMayBeComplete: Bool

    /// Creates the machine for one attempt of `message`.
    ///
    /// - Parameters:
    ///   - message: The request as it would go without resumption.
    ///   - resumingAt: An earlier run's upload of this very body, to go on with.
    ///   - earlierMayBeComplete: Whether that earlier attempt may have completed it.
    public init(message: RequestMessage, resumingAt: UploadTarget? = nil, earlierMayBeComplete: Bool = false) {
        self.message = message
        uploadURL = resumingAt
        self.earlierMayBeComplete = earlierMayBeComplete
    }

    /// The body's length: the bytes the upload holds once complete.
    public var length: Int64 { message.body.contentLength }

    /// The offset the request in flight starts at (its body bytes come after it).
    public var offset: Int64 {
        if case let .append(offset) = step { return offset }
        return 0
    }

    /// The first request: `HEAD` on an earlier run's upload, or `message`.
    ///
    /// - Returns: The action.
    public mutating func start() -> Action {
        if let uploadURL {
            askingEarlierUpload = true
            step = .locate
            return .send(request("HEAD", to: uploadURL, headers: [], body: Self.noBody))
        }
        step = .upload
        return .send(message)
    }

    /// An informational response arrived for the request in flight: a `104` names the upload's URL.
    ///
    /// - Parameters:
    ///   - status: Its status, 100–199.
    ///   - headers: Its headers.
    public mutating func informational(status: Int, headers: [HeaderField]) {
        guard status == ResumableUploadFields.resumptionSupportedStatus,
              let location = headers.first(where: { HTTPToken.namesEqual($0.name, "Location") })?.value,
              let target = RedirectPolicy.resolve(location, against: message.target) else { return }
        uploadURL = target
    }

    /// The request in flight was answered.
    ///
    /// - Parameter response: The answer.
    /// - Returns: The action.
    public mutating func answered(_ response: UploadResponse) -> Action {
        switch step {
        case .upload:
            return .finish(response)
        case .locate:
            return located(response)
        case .append:
            // 409: the offset was not the server's (it moved on meanwhile): ask again.
            if response.status == 409, let uploadURL, response.value(forHeader: ResumableUploadFields.offsetName) != nil {
                return locate(uploadURL, after: firstFailure ?? .transferFailed(reason: .connectionLost(message: "the server refused the resumed upload's offset")))
            }
            var answer = response
            answer.resumedAt = resumedAt
            return .finish(answer)
        }
    }

    /// The request in flight failed without an answer.
    ///
    /// - Parameter error: Why.
    /// - Returns: The action.
    public mutating func failed(_ error: UploadError) -> Action {
        guard Self.isResumable(error), let uploadURL else { return .fail(firstFailure ?? error) }
        switch step {
        case .upload, .append:
            return locate(uploadURL, after: error)
        case .locate:
            return .fail(firstFailure ?? error)
        }
    }

    /// The request that removes the upload from the server (`DELETE` on its URL), for a job
    /// cancelled rather than stopped; nil when the server named no upload URL.
    ///
    /// - Returns: The request.
    public func cancellationRequest() -> RequestMessage? {
        uploadURL.map { request("DELETE", to: $0, headers: [], body: Self.noBody) }
    }

    /// Whether a failure is the connection's (lost, timed out, or not reopened), which the
    /// server's offset can settle; not a stop or a cancel, nor TLS, a proxy or a bad reply.
    private static func isResumable(_ error: UploadError) -> Bool {
        guard case let .transferFailed(reason) = error else { return false }
        switch reason {
        case .connectionLost, .idleTimedOut, .connectFailed, .connectTimedOut, .connectionRefused: return true
        case let .incompleteAtServer(reason): return isResumable(.transferFailed(reason: reason))
        default: return false
        }
    }

    private mutating func locate(_ url: UploadTarget, after error: UploadError) -> Action {
        if firstFailure == nil { firstFailure = error }
        guard resumptionsWithoutProgress < Self.maximumResumptionsWithoutProgress else { return .fail(firstFailure ?? error) }
        resumptionsWithoutProgress += 1
        step = .locate
        return .send(request("HEAD", to: url, headers: [], body: Self.noBody))
    }

    /// What a `HEAD` on the upload's URL said of it.
    private enum UploadStanding {
        /// The server has the first `offset` bytes (within the body) and waits for the rest.
        case incomplete(offset: Int64)
        /// The server has the whole upload.
        case complete
        /// No usable offset: the upload is gone, or the answer is not the draft's.
        case unknown
    }

    private func standing(in response: UploadResponse) -> UploadStanding {
        guard response.isSuccess else { return .unknown }
        if response.value(forHeader: ResumableUploadFields.completeName).flatMap(ResumableUploadFields.boolean) == true { return .complete }
        guard let offset = response.value(forHeader: ResumableUploadFields.offsetName).flatMap(ResumableUploadFields.integer),
              (0...length).contains(offset) else { return .unknown }
        return .incomplete(offset: offset)
    }

    /// The `HEAD`'s answer: `PATCH` of the rest from the server's offset. Otherwise, after a lost
    /// connection the failure stands; for an earlier run's upload, a complete one may have
    /// arrived and a gone one makes the request go whole as a new upload.
    private mutating func located(_ response: UploadResponse) -> Action {
        let earlierRun = askingEarlierUpload
        askingEarlierUpload = false
        switch (standing(in: response), earlierRun) {
        case let (.incomplete(offset), _):
            return append(from: offset)
        case (.complete, _):
            var answer = response
            answer.answerWasLost = true
            if !resumedAt.isEmpty { answer.resumedAt = resumedAt }
            return .finish(answer)
        case (.unknown, true) where earlierMayBeComplete:
            return .fail(.transferFailed(reason: .unansweredAfterSending(
                .connectionLost(message: "the server no longer knows the upload it may have completed"))))
        case (.unknown, true):
            uploadURL = nil
            step = .upload
            return .send(message)
        case (.unknown, false):
            return .fail(firstFailure ?? .transferFailed(reason: .connectionLost(message: "the upload could not be resumed")))
        }
    }

    /// `PATCH` of the body's rest from the server's `offset`.
    private mutating func append(from offset: Int64) -> Action {
        guard let uploadURL else { preconditionFailure("an append without the upload's URL") }
        if offset > (resumedAt.last ?? 0) { resumptionsWithoutProgress = 0 }
        resumedAt.append(offset)
        step = .append(offset: offset)
        let fields = [
            HeaderField(name: ResumableUploadFields.offsetName, value: String(offset)),
            HeaderField(name: ResumableUploadFields.completeName, value: "?1"),
        ]
        return .send(request("PATCH", to: uploadURL, headers: fields,
                             body: message.body.suffix(from: offset, contentType: ResumableUploadFields.appendContentType)))
    }

    /// A request to the upload's URL: the job's headers (credentials kept only on the same
    /// origin, as a redirect keeps them) but the body's and the creation's, the interop version,
    /// `fields`, and for a `PATCH` the body's type (the draft asks for it even on an empty one) and
    /// exact length.
    private func request(_ method: String, to url: UploadTarget, headers fields: [HeaderField], body: RequestBody) -> RequestMessage {
        let replaced = ["Content-Type", "Content-Length", ResumableUploadFields.interopVersionName, ResumableUploadFields.completeName]
        var headers = RedirectPolicy.headers(message.headers, from: message.target, to: url).filter { header in
            !replaced.contains { HTTPToken.namesEqual(header.name, $0) }
        }
        headers.append(HeaderField(name: ResumableUploadFields.interopVersionName, value: String(ResumableUploadFields.interopVersion)))
        headers += fields
        if method == "PATCH" {
            headers.append(HeaderField(name: "Content-Type", value: body.contentType))
            headers.append(HeaderField(name: "Content-Length", value: String(body.contentLength)))
        }
        return RequestMessage(method: method, target: url, headers: headers, body: body)
    }
}
