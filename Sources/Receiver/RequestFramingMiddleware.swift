import Hummingbird
import NIOCore

/// Answers at once, without reading the body, every request whose head ``RequestFraming``
/// refuses (413, 400, 501), whatever its route, and closes its connection after the answer: a
/// body that will not be taken is not waited for.
///
/// Added to the router after ``RequestLogMiddleware`` and ``AccessMiddleware``, so refused
/// requests are logged and a client without the token learns nothing about the limits.
struct RequestFramingMiddleware: RouterMiddleware {
    typealias Context = ReceiverRequestContext

    /// The body limit (`--max-body`).
    let maxBodySize: Int64

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let refusal = RequestFraming.refusal(for: request.headers, maxBodySize: maxBodySize) else {
            return try await next(request, context)
        }
        context.logDetails.withState { $0.error = refusal.description }
        // Hummingbird's connection handler closes the connection once this response is written.
        context.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        return JSONBody.error(status: refusal.httpStatus, refusal.description)
    }
}
