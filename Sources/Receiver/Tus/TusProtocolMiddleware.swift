import Hummingbird

/// The rules tus 1.0.0 sets for every request under `/files/`: `Tus-Resumable: 1.0.0` on every
/// answer, and a request other than `OPTIONS` without it (or with another version) answered
/// 412 with `Tus-Version`; a HEAD's answer (a refusal's too) goes without a body, so a client
/// reading it never waits for one.
struct TusProtocolMiddleware: RouterMiddleware {
    typealias Context = ReceiverRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        if let refusal = Self.versionRefusal(request) {
            response = TusHandler.refusal(refusal, request: request, context: context)
            response.headers[.tusVersion] = TusRequestRules.version
        } else {
            response = try await next(request, context)
        }
        response.headers[.tusResumable] = TusRequestRules.version
        if request.method == .head {
            response.body = ResponseBody()
            response.headers[.contentType] = nil
        }
        return response
    }

    /// The 412 for a request other than `OPTIONS` without `Tus-Resumable: 1.0.0`, if it is one.
    private static func versionRefusal(_ request: Request) -> ReceiverError? {
        guard request.method != .options else { return nil }
        do throws(ReceiverError) {
            try TusRequestRules.checkVersion(request.headers[.tusResumable])
            return nil
        } catch {
            return error
        }
    }
}
