import FileSystem
import FoundationEssentials
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Glibc

/// The receiving server of `ferry serve`, runnable in-process: Hummingbird 2 over HTTP/1.1,
/// multipart bodies streamed to disk.
///
/// Start it, use its ``baseURL``, and always stop it:
/// ```swift
/// let server = try await ReceiverServer.start(ReceiverConfiguration(port: 0, directory: tempDir))
/// // POST multipart/form-data to "\(server.baseURL)/upload", read server.receivedUploads …
/// await server.shutdown()
/// ```
/// or let ``withRunningReceiver(_:_:)`` do the stopping. ``start(_:)`` returns once the socket is
/// bound, so the port is known and connections are accepted.
///
/// Routes: `GET /` (how to send), `GET /uploads` (JSON array of ``UploadRecord``),
/// `POST /upload`, `/upload/...`, `/multiupload` (store files, answer with an ``UploadRecord``),
/// and tus 1.0.0 resumable uploads at `/files/` (``TusHandler``).
public final class ReceiverServer: Sendable {
    /// The URL to send to, such as `http://127.0.0.1:41234` (no trailing slash).
    public let baseURL: String
    /// The address listened on.
    public let host: String
    /// The bound TCP port (the real one when the configuration asked for 0).
    public let port: Int
    /// The absolute path of the upload directory.
    public let directory: String

    private let store: UploadStore
    /// Runs the server; once it has ended, the listening socket is stopped (``ListeningSocket``).
    private let task: Task<Void, any Error>
    /// The server's service group, shut down gracefully by ``shutdown()``.
    private let services: ServiceGroup
    private let stopping: StoppingFlag
    private let connections: ConnectionRegistry
    /// Removes expired tus uploads every ``TusHandler/sweepInterval``; cancelled by ``shutdown()``.
    private let sweeper: Task<Void, Never>

    private init(
        baseURL: String,
        host: String,
        port: Int,
        directory: String,
        store: UploadStore,
        task: Task<Void, any Error>,
        services: ServiceGroup,
        stopping: StoppingFlag,
        connections: ConnectionRegistry,
        sweeper: Task<Void, Never>
    ) {
        self.baseURL = baseURL
        self.host = host
        self.port = port
        self.directory = directory
        self.store = store
        self.task = task
        self.services = services
        self.stopping = stopping
        self.connections = connections
        self.sweeper = sweeper
    }

    /// Every upload stored so far, oldest first (what `GET /uploads` answers).
    public var receivedUploads: [UploadRecord] {
        store.all
    }

    /// Starts a server and returns once it is listening.
    ///
    /// Creates the upload directory if needed. The caller **must** call ``shutdown()`` (or use
    /// ``withRunningReceiver(_:_:)``).
    /// - Parameter configuration: Address, directory, limits and faults.
    /// - Returns: The running server.
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` or
    ///   ``ReceiverError/serverFailed(reason:)`` (for example when the port is taken).
    public static func start(_ configuration: ReceiverConfiguration) async throws(ReceiverError) -> ReceiverServer {
        try configuration.validate()
        let capacity = try configuration.capacity.resolved(descriptorLimit: DescriptorLimit.current)
        let directory = try prepareDirectory(configuration.directory)
        let stopping = StoppingFlag()
        let connections = ConnectionRegistry()
        let listener = ListeningSocket()
        var logger = Logger(label: "ferry.receiver") { QuietOnStopLogHandler(label: $0, stopping: stopping) }
        logger.logLevel = configuration.logLevel

        let store = UploadStore()
        let slots = UploadSlots(limit: capacity.uploads)
        let keys = IdempotencyKeyStore()
        let handler = UploadHandler(
            directory: directory,
            limits: configuration.limits,
            faults: FaultInjector(plan: configuration.faults),
            store: store,
            pool: NIOThreadPool.singleton,
            stopping: stopping,
            slots: slots,
            keys: keys,
            resumptions: ResumableUploads(expiration: configuration.tusExpiration, keys: keys),
            offersResumableUploads: configuration.offersResumableUploads
        )
        let tus = TusHandler(
            staging: TusStaging(uploadDirectory: directory),
            uploads: TusUploads(),
            limits: configuration.limits,
            store: store,
            pool: NIOThreadPool.singleton,
            slots: slots,
            expiresAfter: configuration.tusExpiration
        )
        await NIOThreadPool.singleton.runBlocking { PartFileWriter.removeLeftovers(in: directory) }
        await tus.restore()
        let accessCheck: AccessCheck? =
            switch configuration.access {
            case .open: nil
            case .token(let token): AccessCheck(token: token)
            }
        let timeouts = configuration.timeouts
        let throttle = configuration.throttle
        let maxBodySize = configuration.limits.maxBodySize
        let host = configuration.host
        let router = ReceiverRouter.make(
            handler: handler,
            tus: tus,
            store: store,
            fallbackBaseURL: url(host: host, port: configuration.port),
            accessCheck: accessCheck,
            maxBodySize: configuration.limits.maxBodySize,
            logSink: configuration.onRequestLogged
        )
        let (listening, listeningContinuation) = AsyncStream<Result<Int, ReceiverError>>.makeStream()
        let onListening = configuration.onListening
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                HTTP1Channel(responder: { request, responseWriter, channel in
                    // Neither NIO nor Hummingbird answer `Expect: 100-continue`; without this,
                    // curl waits a second before sending any body over 1 MiB. Never to a request
                    // without the token, nor to one whose head RequestFraming refuses: they are
                    // answered unread.
                    // A resumable upload (the IETF draft) is told its URL first, in a 104; its
                    // handler takes the assignment by the connection (one request at a time).
                    let resumable = handler.offersResumption(request.head)
                    let continues = handler.shouldSendContinue(request.head) || tus.shouldSendContinue(request.head)
                    if resumable || continues,
                       accessCheck?.allows(authorization: request.head.headerFields[.authorization]) ?? true,
                       RequestFraming.refusal(for: request.head.headerFields, maxBodySize: maxBodySize) == nil {
                        if resumable {
                            try await responseWriter.writeInformationalHead(handler.beginResumption(request.head, on: channel))
                        }
                        if continues { try await responseWriter.writeInformationalHead(HTTPResponse(status: .continue)) }
                    }
                    try await responder(request, responseWriter, channel)
                }, configuration: HTTP1Channel.Configuration(
                    // The throttle comes after the timeouts (nearer the server), so a read it holds
                    // back is not a read the client is late for; a throttled connection keeps
                    // NIO's reads of up to 64 KiB, so its pace stays even.
                    additionalChannelHandlers: [
                        connections.makeHandler(), ConnectionShutdown(), ConnectionTimeoutHandler(timeouts: timeouts),
                    ] + (throttle.map { [ReadThrottleHandler(bytesPerSecond: $0)] as [any RemovableChannelHandler] }
                        ?? [ReceiveBufferSizing()])))
            },
            // Past the connection limit the server stops accepting: new connections wait in the
            // kernel's backlog until one closes, and no descriptor is spent on them meanwhile.
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: configuration.port),
                backlog: 1024,
                availableConnectionsDelegate: MaximumAvailableConnections(capacity.connections)
            ),
            onServerRunning: { channel in
                if let address = channel.localAddress { listener.adopt(listeningOn: address) }
                let port = channel.localAddress?.port ?? configuration.port
                // Runs before the first connection is accepted, so this line comes first.
                onListening?(url(host: host, port: port))
                listeningContinuation.yield(.success(port))
            },
            logger: logger
        )
        let requestedPort = configuration.port
        // Stopped by a graceful shutdown, never by cancelling the task: a cancelled server can
        // leave a connection it had accepted but not yet served, whose NIOAsyncChannel then traps
        // ("Deinited NIOAsyncWriter without calling finish()", apple/swift-nio#3481); a graceful
        // shutdown closes the listening channel and still serves (and closes) what it accepted.
        let services = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer {
                listener.stop()
                listeningContinuation.finish()
            }
            do {
                try await services.run()
            } catch {
                listeningContinuation.yield(
                    .failure(.serverFailed(reason: .bindFailed(host: host, port: requestedPort, description: "\(error)"))))
                throw error
            }
        }
        var boundPort: Int?
        for await event in listening {
            switch event {
            case .success(let port):
                boundPort = port
            case .failure(let error):
                throw error
            }
            break
        }
        guard let boundPort else {
            throw .serverFailed(reason: .stoppedBeforeListening(description: "the server task ended"))
        }
        let sweeper = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: tus.sweepInterval)
                await tus.sweep()
            }
        }
        return ReceiverServer(
            baseURL: url(host: host, port: boundPort),
            host: host,
            port: boundPort,
            directory: directory,
            store: store,
            task: task,
            services: services,
            stopping: stopping,
            connections: connections,
            sweeper: sweeper
        )
    }

    /// Stops the server: closes the listening socket and every connection, ends stalled and
    /// in-flight requests (their partial files are deleted), and returns when all is done.
    /// Connections accepted but never served are closed too (``ConnectionRegistry``).
    ///
    /// Once it returns, the port can be bound again at once, also by a new receiver: the
    /// listening socket has stopped listening even where a spawned process still holds a copy
    /// of it (``ListeningSocket``), and connections the receiver closed first, left in TIME_WAIT
    /// on the port, do not count (Hummingbird sets `SO_REUSEADDR`).
    ///
    /// Safe to call more than once and from any task.
    public func shutdown() async {
        stopping.set()
        sweeper.cancel()
        await services.triggerGracefulShutdown()
        // A graceful shutdown would wait for requests in flight: end them, and any connection
        // accepted while the listening channel was closing, until the server has stopped.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await self.task.result }
            group.addTask {
                while !Task.isCancelled {
                    self.connections.closeAll()
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Waits until the server stops (after ``shutdown()`` or a fatal server error).
    ///
    /// - Throws: The error that stopped the server, if it was not a shutdown.
    public func waitUntilStopped() async throws {
        do {
            try await task.value
        } catch is CancellationError {
            return
        } catch where task.isCancelled {
            return
        }
    }

    /// The URL for `host` and `port`, bracketing IPv6 addresses.
    static func url(host: String, port: Int) -> String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "http://\(hostPart):\(port)"
    }

    /// Creates the upload directory (and its parents) and returns its absolute, standardised
    /// path. The path is a `FileSystemName` string (as `ferry serve --dir` decodes it), so the
    /// directory is made under the same bytes `PartFileWriter` opens files in.
    private static func prepareDirectory(_ path: String) throws(ReceiverError) -> String {
        let base = path.hasPrefix("/") ? nil : FileSystemName.currentDirectory().map {
            URL(fileURLWithPath: $0, isDirectory: true)
        }
        let absolute = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
        var prefix = ""
        for component in absolute.split(separator: "/") {
            prefix += "/" + component
            if FileSystemName.withFileSystemPath(prefix, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
                throw .invalidConfiguration(reason: .uploadDirectoryUnusable(path: absolute, errno: errno))
            }
        }
        var info = stat()
        guard FileSystemName.withFileSystemPath(absolute, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR,
            FileSystemName.withFileSystemPath(absolute, { access($0, W_OK | X_OK) }) == 0
        else {
            throw .invalidConfiguration(reason: .uploadDirectoryUnusable(path: absolute, errno: errno))
        }
        return absolute
    }
}
