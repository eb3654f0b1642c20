import Hummingbird

/// Builds the receiver's routes: the usage text, the list of uploads, the multipart upload
/// endpoints and tus at `/files/`.
enum ReceiverRouter {
    /// Makes the router.
    ///
    /// - Parameters:
    ///   - handler: Answers the multipart upload routes.
    ///   - tus: Answers tus 1.0.0 at `/files/`.
    ///   - store: The stored uploads, for `GET /uploads`.
    ///   - fallbackBaseURL: The server's URL for the usage text when a request has no `Host`.
    ///   - accessCheck: The token every request must carry, or `nil` when anyone may send.
    ///   - maxBodySize: The body limit (`--max-body`), for ``RequestFramingMiddleware``.
    ///   - logSink: Receives one log entry per request.
    /// - Returns: A router whose middleware logs every request, matched or not, refuses every
    ///   request without the token, and answers a head that announces a body it will not take.
    static func make(
        handler: UploadHandler,
        tus: TusHandler,
        store: UploadStore,
        fallbackBaseURL: String,
        accessCheck: AccessCheck?,
        maxBodySize: Int64,
        logSink: (@Sendable (RequestLog) -> Void)?
    ) -> Router<ReceiverRequestContext> {
        let router = Router(context: ReceiverRequestContext.self)
        router.add(middleware: RequestLogMiddleware(sink: logSink))
        if let accessCheck {
            router.add(middleware: AccessMiddleware(check: accessCheck))
        }
        router.add(middleware: RequestFramingMiddleware(maxBodySize: maxBodySize))
        let directory = handler.directory
        router.get("/") { request, _ in
            let baseURL = request.head.authority.map { "http://\($0)" } ?? fallbackBaseURL
            let usage = usageText(baseURL: baseURL, directory: directory)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: usage))
            )
        }
        router.get("/uploads") { _, _ in
            JSONBody.response(status: 200, store.all)
        }
        for path in ["/upload", "/upload/**", "/multiupload"] {
            router.post(RouterPath(path)) { request, context in
                await handler.handle(request, context: context)
            }
        }
        let resumptions = router.group(RouterPath(UploadHandler.resumptionPath))
        resumptions.head(":id") { _, context in handler.locate(context.parameters.get("id") ?? "", context: context) }
        resumptions.patch(":id") { request, context in
            await handler.append(request, to: context.parameters.get("id") ?? "", context: context)
        }
        resumptions.delete(":id") { _, context in await handler.remove(context.parameters.get("id") ?? "", context: context) }
        tus.addRoutes(to: router)
        return router
    }

    /// The text of `GET /`: how to send to this server.
    ///
    /// - Parameters:
    ///   - baseURL: The server's URL.
    ///   - directory: Where uploads are saved.
    /// - Returns: A few lines of plain text.
    static func usageText(baseURL: String, directory: String) -> String {
        """
        ferry serve: a receiver for multipart/form-data uploads and tus resumable uploads.

        Send any number of files and text fields with POST to /upload (or /upload/..., /multiupload):
          curl -F file=@photo.jpg -F note=hello \(baseURL)/upload
        The answer is JSON: {"fields": {NAME: [VALUE, ...]}, "files": [{"field", "filename", "savedAs", "size", "contentType", "sha256"}]}.
        An upload sent again with the same Idempotency-Key is stored once and answered with the first answer.
        Resumable uploads speak tus 1.0.0 at \(baseURL)/files/ (creation, creation-with-upload, termination,
        expiration, checksum sha1/sha256), for example with tuspy:
          python3 -c 'from tusclient import client; client.TusClient("\(baseURL)/files/").uploader("photo.jpg", metadata={"filename": "photo.jpg"}).upload()'
        A finished tus upload is saved like a form's file, under its "filename" metadata.
        Files are saved in \(directory). GET \(baseURL)/uploads lists what was received.

        """
    }
}
