import Hummingbird
import NIOCore

/// Answers 401, with a `WWW-Authenticate` challenge for Bearer and for Basic, to every request
/// that does not carry the receiver's token, whatever its route (matched or not).
///
/// Added to the router right after ``RequestLogMiddleware``, so refused requests are logged too.
/// A refused request that may have a body is answered and its connection closed, so a large
/// upload is not read only to be thrown away.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ReceiverRequestContext

    /// The token's check.
    let check: AccessCheck

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if check.allows(authorization: request.headers[.authorization]) {
            return try await next(request, context)
        }
        let error = ReceiverError.requestRejected(reason: .unauthorized)
        context.logDetails.withState { $0.error = error.description }
        if RequestFraming.announcesBody(request.headers) {
            context.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
        var response = JSONBody.error(status: error.httpStatus, error.description)
        response.headers[values: .wwwAuthenticate] = AccessCheck.challenges
        return response
    }
}
