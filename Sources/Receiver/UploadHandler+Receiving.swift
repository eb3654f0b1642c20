import FileSystem
import Hummingbird
import Multipart
import NIOCore

/// Receiving an upload's body in steps that a resumable upload can take on several connections:
/// ``begin(_:key:)`` checks the request and draws its faults, ``feed(_:_:context:)`` reads one
/// request's body into the session, ``settle(_:_:resumption:)`` decides what the read came to.
extension UploadHandler {
    /// An upload request checked: its session, or its refusal.
    enum Start {
        /// The request is an upload to read.
        case session(UploadSession)
        /// The request is refused as it is.
        case refused(Outcome)
    }

    /// How one request's body read ended.
    enum Feed {
        /// The whole body has been read.
        case complete
        /// The connection ended (or timed out) before the body was complete.
        case cut(ReceiverError)
        /// The connection was dropped on purpose (`--drop-rate`).
        case dropped
        /// The body cannot be stored; `closes` closes the connection after the answer.
        case failed(ReceiverError, closes: Bool)
    }

    /// Checks an upload request and starts its session (the fault decisions are drawn here, in
    /// the order ``FaultPlan`` says, once per upload).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - key: Its `Idempotency-Key`, claimed.
    /// - Returns: The session, or the refusal.
    func begin(_ request: Request, key: String?) -> Start {
        let expectsContinue = request.headers[.expect]?.lowercased() == "100-continue"
        guard let contentType = request.headers[.contentType],
            HeaderValue(parsing: contentType).value.lowercased() == "multipart/form-data"
        else {
            return .refused(.failed(.requestRejected(reason: .unsupportedContentType(request.headers[.contentType])),
                                    closeConnection: expectsContinue))
        }
        guard let boundary = boundary(of: request.headers) else {
            return .refused(.failed(.requestRejected(reason: .missingBoundary), closeConnection: expectsContinue))
        }
        // RequestFramingMiddleware has answered a Content-Length that is not a number or is over
        // the limit, so this one fits an Int64.
        let expectedLength = request.headers[.contentLength].flatMap { Int64($0) }
        let drop = faults.shouldDropConnection()
        let failRandomly = faults.shouldFailRandomly()
        let injectedStatus = faults.plan.status
        let reader = FormDataReader(
            boundary: boundary, directory: directory, limits: limits, faults: faults,
            keepsFiles: !failRandomly && (injectedStatus ?? 200) < 400, pool: pool, slots: slots
        )
        return .session(UploadSession(reader: reader, expectedLength: expectedLength, drop: drop, failRandomly: failRandomly,
                                      injectedStatus: injectedStatus, idempotencyKey: key))
    }

    /// Reads one request's body into the session.
    ///
    /// - Parameters:
    ///   - session: The upload.
    ///   - body: The request's body: the whole upload's, or a `PATCH`'s rest of it.
    ///   - context: The request's context (its channel, its log).
    /// - Returns: How the read ended.
    func feed(_ session: UploadSession, _ body: RequestBody, context: ReceiverRequestContext) async -> Feed {
        var iterator = body.makeAsyncIterator()
        do throws(ReceiverError) {
            while true {
                guard let chunk = try await iterator.nextChunk(received: session.bytesRead, expected: session.expectedLength) else { break }
                session.bytesRead += Int64(chunk.readableBytes)
                let total = session.bytesRead
                context.logDetails.withState { $0.bytes = total }
                if session.bytesRead > limits.maxBodySize {
                    return .failed(.requestRejected(reason: .bodyTooLarge(limit: limits.maxBodySize)), closes: true)
                }
                if session.drop {
                    session.bytesRead -= Int64(chunk.readableBytes)
                    return dropConnection(session, context)
                }
                try await session.reader.consume(chunk)
            }
            if session.drop { return dropConnection(session, context) }
            if Task.isCancelled {
                return .cut(.requestRejected(reason: .truncatedBody(received: session.bytesRead, expected: session.expectedLength)))
            }
            if let expected = session.expectedLength, session.bytesRead < expected {
                return .cut(.requestRejected(reason: .truncatedBody(received: session.bytesRead, expected: expected)))
            }
            return .complete
        } catch {
            switch error {
            case .requestRejected(.truncatedBody), .requestRejected(.headerTimedOut), .requestRejected(.bodyTimedOut),
                .requestRejected(.bodyTooSlow):
                return .cut(error)
            case .requestRejected(.bodyTooLarge), .requestRejected(.tooManyUploads):
                return .failed(error, closes: true)
            default:
                return .failed(error, closes: session.expectedLength == nil)
            }
        }
    }

    /// What a read came to: a complete body is stored (or refused by the faults); a cut one is
    /// parked when the upload is resumable, else abandoned.
    ///
    /// - Parameters:
    ///   - session: The upload.
    ///   - feed: How the read ended.
    ///   - resumption: The resumable upload's ID, if it is one.
    /// - Returns: The outcome.
    func settle(_ session: UploadSession, _ feed: Feed, resumption: String?) async -> Outcome {
        var outcome: Outcome
        switch feed {
        case .complete:
            outcome = await conclude(session)
        case .dropped:
            outcome = resumption == nil ? .dropped : .parked(.requestRejected(reason: .truncatedBody(
                received: session.bytesRead, expected: session.expectedLength)))
        case .cut(let error):
            outcome = resumption == nil ? .failed(error, closeConnection: true) : .parked(error)
        case .failed(let error, let closes):
            outcome = .failed(error, closeConnection: closes)
        }
        if case .parked(let error) = outcome, let resumption, !resumptions.park(resumption, session) {
            outcome = .failed(error, closeConnection: true)  // removed meanwhile (DELETE)
        }
        switch outcome {
        case .parked:
            break
        case .stored:
            if let resumption { resumptions.complete(resumption) }
        case .failed, .dropped:
            await session.reader.abandon()
            if let resumption { _ = resumptions.remove(resumption) }
        }
        settleKey(session.idempotencyKey, after: outcome)
        return outcome
    }

    /// Closes the connection for `--drop-rate` (once per upload).
    private func dropConnection(_ session: UploadSession, _ context: ReceiverRequestContext) -> Feed {
        session.drop = false
        context.channel.close(mode: .all, promise: nil)
        return .dropped
    }

    /// A complete body: its parts are finished, then the faults that answer a whole upload apply
    /// (`--fail-first`, `--fail-rate`, `--status`), then it is stored; a refusal's files go in
    /// ``settle(_:_:resumption:)``.
    private func conclude(_ session: UploadSession) async -> Outcome {
        let reader = session.reader
        do throws(ReceiverError) {
            let record = try await reader.finish()
            if let hit = reader.failFirstHit {
                let detail =
                    "Injected failure: attempt \(hit.attempt) of \(faults.plan.failFirst) for '\(FileSystemName.escaped(hit.filename))' fails (--fail-first \(faults.plan.failFirst))."
                return .failed(.requestRejected(reason: .injectedFailure(status: 500, detail: detail)), closeConnection: false)
            }
            if session.failRandomly {
                let detail = "Injected random failure (--fail-rate \(faults.plan.failRate))."
                return .failed(.requestRejected(reason: .injectedFailure(status: 500, detail: detail)), closeConnection: false)
            }
            if let injectedStatus = session.injectedStatus, injectedStatus >= 400 {
                let detail = "Injected status \(injectedStatus) (--status \(injectedStatus))."
                return .failed(
                    .requestRejected(reason: .injectedFailure(status: injectedStatus, detail: detail)), closeConnection: false)
            }
            store.append(record)
            return .stored(record, status: session.injectedStatus ?? 200)
        } catch {
            return .failed(error, closeConnection: session.expectedLength == nil)
        }
    }
}
