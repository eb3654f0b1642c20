import Hummingbird

/// Writes one ``RequestLog`` per request and turns thrown HTTP errors (404 and the like) into
/// `{"error": "..."}` JSON responses.
///
/// Added to the router before any route, so it sees every request, matched or not.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ReceiverRequestContext

    /// Receives each finished request's log entry; `nil` logs nothing.
    let sink: (@Sendable (RequestLog) -> Void)?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: Int(response.status.code), started: started)
            return response
        } catch let error as any HTTPResponseError {
            let status = Int(error.status.code)
            let message = error.status.reasonPhrase
            context.logDetails.withState { $0.error = $0.error ?? message }
            log(request, context: context, status: status, started: started)
            return JSONBody.error(status: status, message)
        } catch {
            log(request, context: context, status: 500, started: started)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, started: ContinuousClock.Instant) {
        guard let sink else { return }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let entry = context.logDetails.withState { details in
            RequestLog(
                method: request.method.rawValue,
                path: request.uri.description,
                status: details.statusOverride ?? status,
                bytes: details.bytes,
                durationMs: (milliseconds * 1000).rounded() / 1000,
                fields: details.record.fields,
                files: details.record.files,
                error: details.error,
                replayed: details.replayed ? true : nil
            )
        }
        sink(entry)
    }
}
