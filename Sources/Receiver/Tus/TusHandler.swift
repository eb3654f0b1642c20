import FileSystem
import FoundationEssentials
import Hummingbird
import NIOCore
import NIOPosix

/// Answers tus 1.0.0 at `/files/`: carries out the decisions of ``TusRequestRules`` and each
/// upload's ``TusUploadStateMachine``, with the bytes in ``TusStaging``.
///
/// A finished upload is moved into the upload directory under its `filename` metadata (the
/// rules of multipart uploads: ``SafeFilename``, `-1` suffixes, never an overwrite), recorded in
/// the ``UploadStore`` and logged like a multipart upload.
struct TusHandler: Sendable {
    /// Why a PATCH's body ended.
    private enum BodyOutcome {
        /// Its bytes were written; `interruption` says why fewer than announced arrived, if so
        /// (the bytes stay: the client resumes after them).
        case stored(Int64, interruption: ReceiverError?)
        /// Its bytes were thrown away for `error`; the offset is unchanged.
        case discarded(ReceiverError, closeConnection: Bool)
    }

    let staging: TusStaging
    let uploads: TusUploads
    /// The running SHA-256 of uploads whose PATCHes arrived in order, so finishing reads nothing again.
    let digests = TusUploadDigests()
    let limits: ReceiverLimits
    let store: UploadStore
    let pool: NIOThreadPool
    /// The upload files open; a PATCH (or a creation with a body) takes one while its
    /// ``TusPatchWriter`` has the staged file open, and is answered 503 when none is free.
    let slots: UploadSlots
    /// How long an unfinished upload lives after its last PATCH (`--tus-expire`).
    let expiresAfter: Duration

    /// Adds the tus routes under `/files` to `router`.
    ///
    /// - Parameter router: The receiver's router.
    func addRoutes(to router: Router<ReceiverRequestContext>) {
        let files = router.group("/files").add(middleware: TusProtocolMiddleware())
        files.on("", method: .options) { _, _ in self.options() }
        files.on(":id", method: .options) { _, _ in self.options() }
        files.post("") { request, context in await self.create(request, context: context) }
        files.head(":id") { _, context in self.head(id: context.parameters.get("id") ?? "", context: context) }
        files.patch(":id") { request, context in await self.patch(request, id: context.parameters.get("id") ?? "", context: context) }
        files.delete(":id") { _, context in await self.delete(id: context.parameters.get("id") ?? "", context: context) }
    }

    /// `OPTIONS`: what this server offers.
    private func options() -> Response {
        Response(
            status: .noContent,
            headers: [
                .tusVersion: TusRequestRules.version, .tusExtension: TusRequestRules.extensions,
                .tusMaxSize: String(limits.maxBodySize), .tusChecksumAlgorithm: TusChecksum.supportedAlgorithms,
            ])
    }

    /// `POST /files/`: creation, and creation-with-upload when the body is an offset stream.
    private func create(_ request: Request, context: ReceiverRequestContext) async -> Response {
        let length: Int64
        let hasBody = Self.hasBody(request)
        do throws(ReceiverError) {
            length = try TusRequestRules.uploadLength(
                request.headers[.uploadLength], deferLength: request.headers[.uploadDeferLength], maximum: limits.maxBodySize)
            if let metadata = request.headers[.uploadMetadata] {
                _ = try TusMetadata(parsing: metadata)  // refused now rather than at the end
            }
            if hasBody {
                try TusRequestRules.checkOffsetStream(request.headers[.contentType])
            }
        } catch {
            return Self.refusal(error, request: request, context: context)
        }
        var generator = SystemRandomNumberGenerator()
        let id = TusRequestRules.newID(using: &generator)
        let metadata = request.headers[.uploadMetadata]
        let staging = staging
        let staged = TusUploadStateMachine(id: id, length: length, metadata: metadata, now: Date(), expiresAfter: expiresAfter).info
        if case .failure(let error) = await pool.runBlocking({ staging.create(staged) }) {
            return Self.refusal(error, request: request, context: context)
        }
        // The expiry counts from when the upload exists: a creation that waited for the pool (a
        // busy server) must not find its own upload expired as its first bytes arrive.
        let machine = TusUploadStateMachine(id: id, length: length, metadata: metadata, now: Date(), expiresAfter: expiresAfter)
        let info = machine.info
        uploads.insert(machine)
        if hasBody || length == 0 {
            var response = await receive(request, id: id, offset: 0, context: context)
            if uploads.contains(id) { response.headers[.location] = "/files/" + id }
            if response.status == .noContent { response.status = .created }
            return response
        }
        return Response(
            status: .created,
            headers: [.location: "/files/" + id, .uploadOffset: "0", .uploadExpires: TusRequestRules.httpDate(info.expiresAt)])
    }

    /// `HEAD /files/ID`: the upload's offset, length, metadata and expiry.
    private func head(id: String, context: ReceiverRequestContext) -> Response {
        let action = TusRequestRules.isValidID(id) ? uploads.update(id) { $0.headRequested(now: Date()) } : nil
        switch action {
        case nil:
            return Self.answer(.tusRefused(reason: .uploadNotFound(id: id)), context: context, headers: [.cacheControl: "no-store"])
        case .refuse(let reason):
            return Self.answer(.tusRefused(reason: reason), context: context, headers: [.cacheControl: "no-store"])
        case .answer(let offset, let length, let metadata, let expiresAt):
            var headers: HTTPFields = [.uploadOffset: String(offset), .uploadLength: String(length), .cacheControl: "no-store"]
            if let metadata { headers[.uploadMetadata] = metadata }
            if let expiresAt { headers[.uploadExpires] = TusRequestRules.httpDate(expiresAt) }
            return Response(status: .ok, headers: headers)
        }
    }

    /// `PATCH /files/ID`: checks the request, then stores its body at the offset.
    private func patch(_ request: Request, id: String, context: ReceiverRequestContext) async -> Response {
        do throws(ReceiverError) {
            try TusRequestRules.checkOffsetStream(request.headers[.contentType])
            let offset = try TusRequestRules.offset(request.headers[.uploadOffset])
            guard TusRequestRules.isValidID(id) else { throw .tusRefused(reason: .uploadNotFound(id: id)) }
            return await receive(request, id: id, offset: offset, context: context)
        } catch {
            return Self.refusal(error, request: request, context: context)
        }
    }

    /// `DELETE /files/ID`: termination.
    private func delete(id: String, context: ReceiverRequestContext) async -> Response {
        let action = TusRequestRules.isValidID(id) ? uploads.update(id) { $0.terminateRequested() } : nil
        switch action {
        case nil:
            return Self.answer(.tusRefused(reason: .uploadNotFound(id: id)), context: context)
        case .refuse(let reason):
            return Self.answer(.tusRefused(reason: reason), context: context)
        case .remove:
            uploads.remove(id)
            digests.remove(id)
            let staging = staging
            await pool.runBlocking { staging.remove(id) }
            return Response(status: .noContent)
        }
    }

    /// Stores a body at `offset` of upload `id` (a PATCH, or a creation's body at 0) and
    /// answers 204 with the new offset, or the refusal.
    private func receive(_ request: Request, id: String, offset: Int64, context: ReceiverRequestContext) async -> Response {
        let checksum: TusChecksum?
        do throws(ReceiverError) {
            checksum = try request.headers[.uploadChecksum].map { header throws(ReceiverError) in try TusChecksum(parsing: header) }
        } catch {
            return Self.refusal(error, request: request, context: context)
        }
        let bodyLength = request.headers[.contentLength].flatMap(TusRequestRules.decimal)
        let action = uploads.update(id) { $0.patchRequested(offset: offset, bodyLength: bodyLength, now: Date()) }
        let remaining: Int64
        switch action {
        case nil:
            return Self.refusal(.tusRefused(reason: .uploadNotFound(id: id)), request: request, context: context)
        case .refuse(let reason):
            return Self.refusal(.tusRefused(reason: reason), request: request, context: context)
        case .alreadyComplete(let offset):
            return Response(status: .noContent, headers: [.uploadOffset: String(offset)])
        case .accept(let left):
            remaining = left
        }
        let outcome = await readBody(request, id: id, offset: offset, remaining: remaining, checksum: checksum, context: context)
        switch outcome {
        case .discarded(.storageFailed(.outOfSpace(_, let errno)), let closeConnection):
            return await removeForLackOfSpace(id, errno: errno, context: context, closeConnection: closeConnection)
        case .discarded(let error, let closeConnection):
            uploads.update(id) { $0.patchDiscarded() }
            if case .requestRejected(.truncatedBody) = error {
                // The connection is gone: no answer can be sent.
                context.logDetails.withState { $0.statusOverride = 0 }
            }
            return Self.answer(error, context: context, closeConnection: closeConnection)
        case .stored(let count, let interruption):
            let end = uploads.update(id) { $0.patchEnded(storedBytes: count, now: Date()) }
            let response: Response
            switch end {
            case .finish?: response = await finish(id, context: context)
            case .stored?: response = await persist(id, context: context)
            case nil: response = Self.answer(.tusRefused(reason: .uploadNotFound(id: id)), context: context)
            }
            guard let interruption else { return response }
            context.logDetails.withState {
                $0.error = "\(interruption.description) The \(count) bytes that arrived were kept; the client resumes after them."
            }
            if case .requestRejected(.truncatedBody) = interruption {
                // The connection is gone: no answer can be sent.
                context.logDetails.withState { $0.statusOverride = 0 }
                return response
            }
            return Self.answer(interruption, context: context, closeConnection: true)
        }
    }

    /// Reads the body into the staged file, checking its checksum and its length, and keeps the
    /// upload's running digest (``TusUploadDigests``) through the bytes stored.
    private func readBody(
        _ request: Request, id: String, offset: Int64, remaining: Int64, checksum: TusChecksum?, context: ReceiverRequestContext
    ) async -> BodyOutcome {
        let writer: TusPatchWriter
        do throws(ReceiverError) {
            writer = try await TusPatchWriter.open(in: staging, id: id, at: offset, pool: pool, checksum: checksum,
                                                   digest: digests.hasher(for: id, at: offset), slots: slots)
        } catch {
            return .discarded(error, closeConnection: Self.hasBody(request))
        }
        let expectedLength = request.headers[.contentLength].flatMap(TusRequestRules.decimal)
        var received: Int64 = 0
        var interruption: ReceiverError?
        var iterator = request.body.makeAsyncIterator()
        do throws(ReceiverError) {
            while true {
                let chunk: ByteBuffer?
                do throws(ReceiverError) {
                    chunk = try await iterator.nextChunk(received: received, expected: expectedLength)
                } catch {
                    interruption = error  // a timeout (408), or the body cut off: what arrived is kept
                    break
                }
                guard let chunk else { break }
                received += Int64(chunk.readableBytes)
                let total = received
                context.logDetails.withState { $0.bytes = total }
                if received > remaining {
                    await writer.discard()
                    let error = ReceiverError.tusRefused(
                        reason: .exceedsLength(length: offset + remaining, offset: offset, bodyLength: received))
                    return .discarded(error, closeConnection: true)
                }
                try await writer.append(chunk)
            }
            if interruption == nil, Task.isCancelled || (expectedLength.map { received < $0 } ?? false) {
                interruption = .requestRejected(reason: .truncatedBody(received: received, expected: expectedLength))
            }
            let written = try await writer.drain()
            if let checksum {
                if let interruption {
                    // Bytes that cannot be checked are not kept.
                    await writer.discard()
                    return .discarded(interruption, closeConnection: true)
                }
                if !written.checksumMatches {
                    await writer.discard()
                    return .discarded(.tusRefused(reason: .checksumMismatch(algorithm: checksum.algorithm.rawValue)), closeConnection: false)
                }
            }
            await writer.close()
            if let digest = written.digest { digests.store(digest, for: id, at: offset + written.count) }
            return .stored(written.count, interruption: interruption)
        } catch {
            await writer.discard()
            return .discarded(error, closeConnection: interruption == nil && expectedLength == nil)
        }
    }

    /// Removes an upload whose PATCH found the disk full (its bytes, its `.info`, its state), so
    /// that the space goes back and no client resumes what cannot be kept, and answers 507.
    private func removeForLackOfSpace(
        _ id: String, errno: Int32, context: ReceiverRequestContext, closeConnection: Bool
    ) async -> Response {
        uploads.remove(id)
        digests.remove(id)
        let staging = staging
        await pool.runBlocking { staging.remove(id) }
        return Self.answer(.storageFailed(reason: .outOfSpaceUploadRemoved(id: id, errno: errno)), context: context,
                           closeConnection: closeConnection)
    }

    /// Writes the upload's new offset to its `.info` and answers it.
    private func persist(_ id: String, context: ReceiverRequestContext) async -> Response {
        guard let info = uploads.update(id, { $0.info }) else {
            return Self.answer(.tusRefused(reason: .uploadNotFound(id: id)), context: context)
        }
        let staging = staging
        if case .failure(let error) = await pool.runBlocking({ staging.write(info) }) {
            // The bytes are stored and the offset is right in memory; only a restart would lose them.
            context.logDetails.withState { $0.error = "The offset could not be persisted: \(error.description)" }
        }
        return Response(
            status: .noContent,
            headers: [.uploadOffset: String(info.offset), .uploadExpires: TusRequestRules.httpDate(info.expiresAt)])
    }

    /// Moves a complete upload into the upload directory, records and logs it, and answers.
    private func finish(_ id: String, context: ReceiverRequestContext) async -> Response {
        guard let info = uploads.update(id, { $0.info }) else {
            return Self.answer(.tusRefused(reason: .uploadNotFound(id: id)), context: context)
        }
        switch await Self.finish(info, staging: staging, pool: pool, sha256: digests.finished(id, length: info.length)) {
        case .failure(let error):
            uploads.update(id) { $0.finishFailed() }
            return Self.answer(error, context: context)
        case .success(let (record, file)):
            uploads.update(id) { $0.finished(file) }
            if let finished = uploads.update(id, { $0.info }) {
                let staging = staging
                _ = await pool.runBlocking { staging.write(finished) }
            }
            store.append(record)
            context.logDetails.withState { $0.record = record }
            return Response(status: .noContent, headers: [.uploadOffset: String(info.length)])
        }
    }

    /// Moves a complete upload's file into the upload directory.
    ///
    /// - Parameters:
    ///   - info: The upload, every byte staged.
    ///   - staging: The staging folder.
    ///   - pool: The thread pool for the blocking calls.
    ///   - sha256: The file's digest when it is known (else the file is read to hash it).
    /// - Returns: The record to store (the metadata as fields, the file) and the file.
    static func finish(_ info: TusUploadInfo, staging: TusStaging, pool: NIOThreadPool, sha256: String? = nil) async
        -> Result<(UploadRecord, UploadedFile), ReceiverError>
    {
        let metadata = info.metadata.flatMap { try? TusMetadata(parsing: $0) }
        let filename = metadata?.text(for: "filename") ?? metadata?.text(for: "name") ?? ""
        let moved = await pool.runBlocking { staging.finish(info.id, as: SafeFilename(filename), sha256: sha256.map { (info.length, $0) }) }
        return moved.map { moved in
            let contentType = metadata?.text(for: "filetype") ?? metadata?.text(for: "type") ?? ""
            let file = UploadedFile(
                field: "/files/" + info.id,
                filename: FileSystemName.escaped(filename),
                savedAs: FileSystemName.escaped(moved.savedAs),
                size: moved.size,
                contentType: contentType.isEmpty ? "application/octet-stream" : contentType,
                sha256: moved.sha256)
            return (UploadRecord(fields: metadata?.fields ?? [:], files: [file]), file)
        }
    }

    /// Whether the request has a body (a `Content-Length` above 0, or chunked).
    static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap(TusRequestRules.decimal) ?? 0) > 0
    }

    /// Answers an error before the body was read: the connection closes after the answer when
    /// a body was announced, so it is not read only to be thrown away.
    static func refusal(_ error: ReceiverError, request: Request, context: ReceiverRequestContext) -> Response {
        answer(error, context: context, closeConnection: hasBody(request))
    }

    /// Answers an error as `{"error": "..."}` with its status (and `Retry-After` with a 503 for
    /// want of an upload slot), and logs why.
    static func answer(
        _ error: ReceiverError, context: ReceiverRequestContext, closeConnection: Bool = false, headers: HTTPFields = [:]
    ) -> Response {
        context.logDetails.withState { $0.error = $0.error ?? error.description }
        if closeConnection {
            context.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        var response = JSONBody.error(status: error.httpStatus, error.description)
        response.headers.append(contentsOf: headers)
        if case .requestRejected(.tooManyUploads) = error { response.headers[.retryAfter] = "1" }
        return response
    }
}

extension TusHandler {
    /// Reads back the uploads an earlier run staged, finishes those whose every byte had
    /// arrived (a stop between the last byte and the move), and sweeps out expired ones.
    func restore() async {
        let staging = staging
        for info in await pool.runBlocking({ staging.restore() }) {
            var machine = TusUploadStateMachine(restoring: info, expiresAfter: expiresAfter)
            if machine.isCompleteButNotMoved, case .success(let (record, file)) = await Self.finish(info, staging: staging, pool: pool) {
                machine.finished(file)
                let finished = machine.info
                _ = await pool.runBlocking { staging.write(finished) }
                store.append(record)
            }
            uploads.insert(machine)
        }
        await sweep()
    }

    /// Removes the files of uploads that expired (and the `.info` of finished ones past it).
    func sweep() async {
        let staging = staging
        for id in uploads.sweep(now: Date()) {
            digests.remove(id)
            await pool.runBlocking { staging.remove(id) }
        }
    }

    /// How often the sweep runs: a quarter of the expiry, between 0.25 s and a minute.
    var sweepInterval: Duration {
        min(.seconds(60), max(.milliseconds(250), expiresAfter / 4))
    }

    /// Whether a request that asks for `100 Continue` should get it: a PATCH (or a creation with
    /// a body) with the right version and content type while an upload slot is free.
    ///
    /// - Parameter head: The request head.
    /// - Returns: `true` to send `100 Continue` before the handler runs.
    func shouldSendContinue(_ head: HTTPRequest) -> Bool {
        guard head.method == .patch || head.method == .post, head.headerFields[.expect]?.lowercased() == "100-continue",
            (head.path ?? "").hasPrefix("/files"), head.headerFields[.tusResumable] == TusRequestRules.version,
            (try? TusRequestRules.checkOffsetStream(head.headerFields[.contentType])) != nil, slots.hasRoom
        else { return false }
        return true
    }
}
