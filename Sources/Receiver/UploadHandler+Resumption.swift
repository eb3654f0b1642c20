import HTTPTypes
import Hummingbird
import Multipart
import NIOCore

/// `/upload` as a resumable upload (`draft-ietf-httpbis-resumable-upload`, interop version 6,
/// the draft Apple's URLSession and Ferry's client speak): a request that offers it
/// (``offersResumption(_:)``) is told its upload's URL in a `104` before its body is read; when
/// its connection is cut, the upload is parked, and `HEAD` on that URL says how much arrived,
/// `PATCH` sends the rest, `DELETE` removes it. The complete upload is answered as a plain
/// request would be — with the stored upload's JSON — to the request that completed it.
extension UploadHandler {
    /// The path under which resumable uploads have their URLs.
    static let resumptionPath = "/upload-resumption"

    /// Whether a request is a resumable upload's creation this server takes on: a `POST` to an
    /// upload route with the draft's interop version 6 and `Upload-Complete: ?1`, a form with a
    /// boundary and a `Content-Length` (a chunked body's end is not known, nor where it would
    /// stand), no `--stall` nor `--no-resumable`, and no sign of a proxy in front (`Via`,
    /// `Forwarded`, `X-Forwarded-For`): nginx, for one, takes a `104` for the answer
    /// (nginx/nginx#1427), and the client would wait for one that never comes.
    ///
    /// - Parameter head: The request head.
    /// - Returns: `true` to answer `104` with the upload's URL.
    func offersResumption(_ head: HTTPRequest) -> Bool {
        guard offersResumableUploads, head.method == .post, !faults.plan.stall,
              head.headerFields[.via] == nil, head.headerFields[.forwarded] == nil,
              head.headerFields[.xForwardedFor] == nil,
              head.headerFields[.uploadDraftInteropVersion] == ResumableUploads.interopVersion,
              head.headerFields[.uploadComplete] == "?1",
              head.headerFields[.contentLength].flatMap({ Int64($0) }) != nil
        else { return false }
        return Self.isUploadPath(Self.path(of: head)) && boundary(of: head.headerFields) != nil
    }

    /// Registers a resumable upload for a request that offers it, assigned to its connection
    /// until its handler takes it (``ResumableUploads/takeAssignment(of:)``).
    ///
    /// - Parameters:
    ///   - head: The request head (``offersResumption(_:)`` said yes).
    ///   - channel: Its connection.
    /// - Returns: The `104` to send.
    func beginResumption(_ head: HTTPRequest, on channel: any Channel) -> HTTPResponse {
        let length = head.headerFields[.contentLength].flatMap { Int64($0) } ?? 0
        let id = resumptions.create(length: length, on: channel)
        var fields = HTTPFields()
        fields[.location] = "\(Self.resumptionPath)/\(id)"
        fields[.uploadDraftInteropVersion] = ResumableUploads.interopVersion
        return HTTPResponse(status: .init(code: 104, reasonPhrase: "Upload Resumption Supported"), headerFields: fields)
    }

    /// `HEAD` on an upload's URL: its offset and whether it is complete (204), or 404.
    func locate(_ id: String, context: ReceiverRequestContext) -> Response {
        guard let standing = resumptions.standing(of: id) else { return unknownUpload(context) }
        var headers = HTTPFields()
        headers[.uploadOffset] = String(standing.offset)
        headers[.uploadComplete] = standing.isComplete ? "?1" : "?0"
        headers[.uploadDraftInteropVersion] = ResumableUploads.interopVersion
        headers[.cacheControl] = "no-store"
        return Response(status: .noContent, headers: headers)
    }

    /// `PATCH` on an upload's URL: the body's rest from `Upload-Offset`, which must be the
    /// server's (else 409 with its offset). A request still receiving the upload is let go first
    /// (the client gave up on its connection). The request that completes the upload gets the
    /// stored upload's answer.
    func append(_ request: Request, to id: String, context: ReceiverRequestContext) async -> Response {
        guard request.headers[.uploadComplete] == "?1" || request.headers[.uploadComplete] == "?0",
              let offset = request.headers[.uploadOffset].flatMap({ Int64($0) }), offset >= 0 else {
            return failure(.requestRejected(reason: .resumptionFieldsMissing), closeConnection: true, context: context)
        }
        // A PATCH is an upload request of its own: --drop-rate draws for it too.
        var session: UploadSession?
        for _ in 0..<200 where session == nil {
            switch resumptions.attach(id, at: offset, on: context.channel) {
            case .attached(let attached): session = attached
            case .busy: try? await Task.sleep(for: .milliseconds(10))
            case .offsetMismatch(let actual):
                var response = failure(.requestRejected(reason: .resumptionOffsetMismatch(sent: offset, actual: actual)),
                                       closeConnection: true, context: context)
                response.headers[.uploadOffset] = String(actual)
                response.headers[.uploadComplete] = "?0"
                return response
            case .complete:
                return failure(.requestRejected(reason: .resumptionComplete), closeConnection: true, context: context)
            case .unknown:
                return unknownUpload(context)
            }
        }
        guard let session else {
            return failure(.requestRejected(reason: .idempotencyKeyInUse), closeConnection: true, context: context)
        }
        session.drop = faults.shouldDropConnection()
        let outcome = await settle(session, await feed(session, request.body, context: context), resumption: id)
        var response = await respond(outcome, context: context)
        if let key = session.idempotencyKey { response.headers[.idempotencyKey] = IdempotencyKeyHeader.value(of: key) }
        return response
    }

    /// `DELETE` on an upload's URL: the upload and its files are removed (204), or 404.
    func remove(_ id: String, context: ReceiverRequestContext) async -> Response {
        guard resumptions.standing(of: id) != nil else { return unknownUpload(context) }
        if let session = resumptions.remove(id) {
            await session.reader.abandon()
            settleKey(session.idempotencyKey, after: .dropped)
        }
        return Response(status: .noContent)
    }

    private func unknownUpload(_ context: ReceiverRequestContext) -> Response {
        failure(.requestRejected(reason: .resumableUploadUnknown), closeConnection: false, context: context)
    }
}
