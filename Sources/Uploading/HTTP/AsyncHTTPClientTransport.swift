import AsyncHTTPClient
import Dispatch
import Multipart
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The real transport: AsyncHTTPClient, with the multipart body streamed chunk by chunk under an
/// exact `Content-Length`.
///
/// - One `HTTPClient` serves every job, so connections to the same host are pooled and reused.
/// - Progress comes from `didSendRequestPart`, which AsyncHTTPClient calls once a part has been
///   written to the socket, not when it is handed over.
/// - Each attempt opens its body reader in a scope around the request and closes it when the
///   request ends, however it ends (response, error, cancel, dropped connection).
/// - There is no total deadline: an idle watchdog fails the attempt when no byte moves in either
///   direction for the request's idle timeout.
/// - Files are read on a dedicated queue, one chunk ahead of the socket, so the event loop never
///   blocks on the disk.
///
/// `shutdown()` **must** be called before the transport is released.
public final class AsyncHTTPClientTransport: UploadTransport {
    /// How the transport connects.
    public struct Configuration: Sendable {
        /// How long establishing a connection may take.
        public var connectTimeout: Duration = .seconds(10)
        /// Whether `https://` certificates are verified (`--insecure` turns this off).
        public var verifiesCertificates = true
        /// The size of the body chunks written to the connection.
        public var chunkSize = MultipartBody.defaultChunkSize
        /// The most connections kept to one host; at least the queue's concurrency.
        public var maximumConnectionsPerHost = 64

        /// Creates a configuration with the defaults.
        public init() {}
    }

    private let client: HTTPClient
    private let chunkSize: Int

    /// Creates a transport with its own connection pool on NIO's shared event loops.
    ///
    /// - Parameter configuration: Timeouts, TLS verification and chunk size.
    public init(configuration: Configuration = Configuration()) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !configuration.verifiesCertificates { tls.certificateVerification = .none }
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(configuration.connectTimeout.nanoseconds)),
            decompression: .disabled
        )
        clientConfiguration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnectionsPerHost
        )
        clientConfiguration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
        chunkSize = configuration.chunkSize
    }

    /// Closes every pooled connection. In-flight requests fail.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func start(
        _ request: UploadRequest,
        progress: @escaping @Sendable (Int64) -> Void,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) -> any TransportTask {
        let attempt = TransferAttempt(body: request.body, chunkSize: chunkSize, progress: progress)
        let httpRequest: HTTPClient.Request
        do {
            httpRequest = try HTTPClient.Request(
                url: request.url,
                method: HTTPMethod(rawValue: request.method),
                headers: HTTPHeaders(request.headers
                    .filter { $0.name.lowercased() != "content-length" }
                    .map { ($0.name, $0.value) }),
                body: .stream(contentLength: request.body.contentLength) { writer in attempt.streamBody(to: writer) }
            )
        } catch {
            let failure = UploadError.requestInvalid(reason: .invalidTarget(.notAURL(request.url)))
            DispatchQueue.global().async { completion(.failure(failure)) }
            return attempt
        }
        let task = client.execute(request: httpRequest, delegate: attempt, eventLoop: .delegate(on: attempt.eventLoop), deadline: nil)
        attempt.begin(task: task, idleTimeout: request.idleTimeout)
        task.futureResult.whenComplete { result in
            completion(attempt.finish(result))
        }
        return attempt
    }
}
