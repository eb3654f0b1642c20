import Multipart
import NIOCore
import NIOPosix
import NIOSSL
import UploadModel
import UploadProtocols

/// The real transport: HTTP/1.1 — or HTTP/2 over TLS when the server offers it (ALPN) — over
/// SwiftNIO through Ferry's own connection pool, the multipart body streamed chunk by chunk
/// under an exact `Content-Length`.
///
/// - Connections to one host are pooled and reused (`ConnectionPool`); every connection is
///   accounted for from connect to close (`ConnectionPoolStateMachine`). Each job's
///   `ConnectionOptions` decide trust, client certificate, proxy (`ConnectionSetup`: `CONNECT`
///   for https) and whether 307/308 are followed (`RedirectPolicy`).
/// - A response decides the attempt once it has ended, whatever the server does with the
///   connection afterwards (`ExchangeStateMachine`); a server that answers early stops the body.
/// - A reused connection found dead before any response byte is re-sent once on a new
///   connection, without counting as an attempt (`TransferExchange`).
/// - Progress counts bytes the socket took. Files are read on their own queue, one chunk ahead
///   of the socket (`BodyPump`), so an event loop never waits for the disk beyond a small body
///   of local files read as its request starts (`startsFromAnyThread`); on plain TCP a large
///   file's middle goes by `sendfile` instead (file regions), its last chunk still read and checked.
/// - There is no total deadline: the attempt fails when no byte moves in either direction for
///   the request's idle timeout.
/// - A request with a tus plan runs a tus upload (`TusTransfer`): its requests, one at a time,
///   through the same pool and exchanges. A request with `ConnectionOptions.resumesUploads` goes
///   as a resumable upload (`ResumableTransfer`): a lost connection goes on from the server's offset.
///
/// `shutdown()` **must** be called before the transport is released.
public final class HTTPTransport: UploadTransport {
    /// How the transport connects.
    public struct Configuration: Sendable {
        /// The size of the body chunks written to the connection.
        public var chunkSize = RequestBody.defaultChunkSize
        /// The most connections kept to one host; at least the queue's concurrency.
        public var maximumConnectionsPerHost = 64
        /// How long an unused connection stays open for the next request.
        public var pooledIdleTimeout: Duration = .seconds(60)
        /// The event loop threads the transport's connections run on. One by default: on a
        /// machine sharing its cores with a server, a second loop costs more CPU per small file
        /// and wins no time (`Benchmarks/RESULTS.md`); a single upload runs on one loop whatever
        /// the count.
        public var eventLoopThreads = 1

        /// Creates a configuration with the defaults.
        public init() {}
    }

    private let pool: ConnectionPool
    private let group: MultiThreadedEventLoopGroup
    private let chunkSize: Int

    /// Creates a transport with its own connection pool on event loops of its own.
    ///
    /// - Parameter configuration: Limits, chunk size and event loop threads.
    public init(configuration: Configuration = Configuration()) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        self.group = group
        pool = ConnectionPool(
            settings: .init(
                maximumPerEndpoint: configuration.maximumConnectionsPerHost,
                pooledIdleTimeout: .nanoseconds(Int64(configuration.pooledIdleTimeout.nanoseconds)),
                tlsContexts: TLSContextCache(make: TLSContextFactory.context(for:))
            ),
            group: group
        )
        chunkSize = configuration.chunkSize
    }

    /// Closes every connection (requests in flight fail), then stops the event loops. Returns
    /// once all are closed and stopped.
    public func shutdown() async throws {
        await pool.shutdown()
        try await group.shutdownGracefully()
    }

    /// Opens connections for requests about to start while the caller does other work (`ferry
    /// send` opening its journal): up to `count` to the endpoint `target` and `options` name (one
    /// where HTTP/2 may carry every request), each taken by the first request that finds it open
    /// or opening. Nothing is sent on them before a request is; one that no request takes closes
    /// after the pooled idle timeout, or at `shutdown()`. A connection that cannot be opened is
    /// the failure of the request that took it, as its own would have been.
    ///
    /// - Parameters:
    ///   - target: The URL the requests go to.
    ///   - options: Their connection options (proxy, TLS).
    ///   - count: How many requests will start at once.
    ///   - connectTimeout: How long connecting may take.
    public func warm(for target: UploadTarget, options: ConnectionOptions, count: Int, connectTimeout: Duration) {
        pool.warm(PoolEndpoint(target, options: options), count: count,
                  connectTimeout: .nanoseconds(Int64(connectTimeout.nanoseconds)))
    }

    /// How many connections are connecting, idle, leased and closing, and how many requests
    /// wait for one: once the queue is idle, nothing is leased or waiting.
    public var connectionCensus: ConnectionPoolCensus {
        pool.census
    }

    public func start(
        _ request: UploadRequest,
        bodyCompleting: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) -> any TransportTask {
        if request.tus != nil {
            let transfer = TusTransfer(pool: pool, request: request, chunkSize: chunkSize, completion: completion)
            transfer.start()
            return transfer
        }
        if request.connection.resumesUploads {
            let transfer = ResumableTransfer(pool: pool, request: request, chunkSize: chunkSize,
                                             bodyCompleting: bodyCompleting, completion: completion)
            transfer.start()
            return transfer
        }
        let exchange = TransferExchange(pool: pool, request: request, chunkSize: chunkSize,
                                        bodyCompleting: bodyCompleting, completion: completion)
        exchange.start()
        return exchange
    }

    /// True: `start` waits for nothing but reading a small body, even on an event loop (a
    /// request's exchange runs on its connection's loop, wherever it was started).
    public var startsFromAnyThread: Bool { true }
}
