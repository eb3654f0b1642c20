import Hummingbird
import NIOCore

/// The Hummingbird request context of the receiver: the core storage plus the connection's
/// channel (to send `100 Continue`, drop or close the connection) and the request's log details.
struct ReceiverRequestContext: RequestContext {
    /// Hummingbird's own per-request storage.
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel
    /// Filled in by the upload handler, written out by ``RequestLogMiddleware``.
    let logDetails: RequestLogDetails

    /// Creates the context for a request arriving on `source.channel`.
    ///
    /// - Parameter source: What the application knows about the request's connection.
    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.logDetails = RequestLogDetails()
    }
}
