import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// How one new connection of the pool is set up, from the TCP connection to the moment it can
/// carry a request: through the proxy's `CONNECT` tunnel when the route has one, then the TLS
/// handshake for `https`, then the HTTP handlers. A connection is ready only when all of that
/// is done, so a refused tunnel or a failed handshake is a connect failure, within the connect
/// timeout.
///
/// A ready connection's pipeline: `NIOSSLClientHandler` (https), `ResponseByteWatcher`, NIO's
/// HTTP/1 request encoder and response decoder, `ExchangeHandler`. When the endpoint may speak
/// HTTP/2 (`PoolEndpoint.mayMultiplex`), the HTTP handlers are added once the handshake has
/// completed: if ALPN chose `h2`, `NIOHTTP2Handler` (its streams each get an `ExchangeHandler`,
/// see `PooledConnection`) and `HTTP2ConnectionWatcher` instead, and the connection is ready at
/// the server's first SETTINGS, which say how many streams it takes.
///
/// The tunnel's and the handshake's outcomes are promises made before the connection exists
/// (on the event loop it will run on), so they are heard however soon the proxy or the server
/// answers; every path completes them.
final class ConnectionSetup: Sendable {
    /// What a connection is set up with.
    struct Plan: Sendable {
        /// Where the requests go.
        let endpoint: PoolEndpoint
        /// How the connection reaches it.
        let route: ProxyRoute
        /// The TLS context, for `https` endpoints.
        let tls: NIOSSLContext?
        /// How long the connection may stay unused between requests.
        let pooledIdleTimeout: TimeAmount
        /// Called (on the event loop) when the server sends an HTTP/2 GOAWAY.
        let goingAway: @Sendable () -> Void
    }

    /// How far setting up has come.
    private enum Progress {
        case connected, tunnelled, finished
    }

    /// The event loop the connection **must** be made on.
    let eventLoop: any EventLoop
    private let plan: Plan
    /// Made when the route has a tunnel.
    private let tunnelEstablished: EventLoopPromise<Void>?
    /// Made for `https` endpoints; succeeds with the protocol ALPN chose.
    private let handshakeCompleted: EventLoopPromise<String?>?

    /// Prepares setting up a connection on `eventLoop`.
    ///
    /// - Parameters:
    ///   - plan: What the connection is set up with.
    ///   - eventLoop: The event loop the connection will run on.
    init(plan: Plan, eventLoop: any EventLoop) {
        self.plan = plan
        self.eventLoop = eventLoop
        if case .tunnel = plan.route { tunnelEstablished = eventLoop.makePromise() } else { tunnelEstablished = nil }
        handshakeCompleted = plan.tls == nil ? nil : eventLoop.makePromise()
    }

    /// Adds the first handlers to the new channel, before it connects: the tunnel's handler when
    /// the route has a tunnel, otherwise (TLS and) the HTTP handlers. **Must** run on the
    /// channel's event loop (in the bootstrap's initializer).
    ///
    /// - Parameter channel: The new channel.
    func initialize(_ channel: any Channel) throws {
        if case let .tunnel(proxy) = plan.route, let tunnelEstablished {
            try channel.pipeline.syncOperations.addHandler(ProxyTunnelHandler(
                proxy: proxy, targetHost: plan.endpoint.host, targetPort: plan.endpoint.port, established: tunnelEstablished))
        } else {
            try addExchangeHandlers(to: channel)
        }
    }

    /// Waits until the connected channel can carry requests: the tunnel up (if any), then the
    /// TLS handshake completed (for https), each before `deadline`. **Must** run on the
    /// channel's event loop. On failure the channel is closed.
    ///
    /// - Parameters:
    ///   - channel: The channel, connected and set up by `initialize`.
    ///   - id: The pool's name for the connection.
    ///   - deadline: When setting up fails with a timeout.
    /// - Returns: The connection, or the `UploadError` saying why there is none.
    func ready(_ channel: any Channel, id: ConnectionPoolStateMachine.ConnectionID,
               deadline: NIODeadline) -> EventLoopFuture<PooledConnection> {
        let outcome = eventLoop.makePromise(of: PooledConnection.self)
        let progress = NIOLoopBoundBox(Progress.connected, eventLoop: eventLoop)
        let finish: @Sendable (Result<PooledConnection, UploadError>) -> Void = { [self] result in
            guard progress.value != .finished else { return }
            progress.value = .finished
            switch result {
            case let .success(connection):
                outcome.succeed(connection)
            case let .failure(error):
                abandon(error)
                channel.close(promise: nil)
                outcome.fail(error)
            }
        }
        let timer = eventLoop.scheduleTask(deadline: deadline) { [plan] in
            let reason: UploadError.TransferReason = if progress.value == .connected, case let .tunnel(proxy) = plan.route {
                .proxyConnectFailed(proxy: proxy.address, message: "it did not answer CONNECT within the connect timeout")
            } else {
                .connectTimedOut
            }
            finish(.failure(.transferFailed(reason: reason)))
        }
        let operations = channel.pipeline.syncOperations
        var step = eventLoop.makeSucceededVoidFuture().assumeIsolated()
        if let tunnelEstablished {
            step = tunnelEstablished.futureResult.assumeIsolated().flatMapThrowing { [self] in
                progress.value = .tunnelled
                try addExchangeHandlers(to: channel)
                if let tunnel = try? operations.handler(type: ProxyTunnelHandler.self) {
                    operations.removeHandler(tunnel, promise: nil)
                }
            }
        }
        let negotiated = if let handshakeCompleted {
            step.flatMap { handshakeCompleted.futureResult }
        } else {
            step.map { String?.none }
        }
        negotiated.flatMap { [self] chosen -> EventLoopFuture<PooledConnection> in
            if let watcher = try? operations.handler(type: TLSHandshakeWatcher.self) {
                operations.removeHandler(watcher, promise: nil)
            }
            guard plan.tls != nil, plan.endpoint.mayMultiplex else {
                return eventLoop.makeCompletedFuture { try http1Connection(channel, id: id) }
            }
            if chosen == "h2" { return http2Connection(channel, id: id) }
            return eventLoop.makeCompletedFuture {
                try addHTTP1Handlers(to: channel)
                return try http1Connection(channel, id: id)
            }
        }.whenComplete { [plan] result in
            timer.cancel()
            finish(result.mapError { error in
                error as? UploadError ?? .transferFailed(reason: TransferErrorMapping.reason(
                    for: error, host: plan.endpoint.host, port: plan.endpoint.port))
            })
        }
        return outcome.futureResult
    }

    /// The error for a TCP connection that could not be made: to the proxy when the route has
    /// one (naming it), otherwise to the server. Ends the setup.
    ///
    /// - Parameter error: What connecting threw.
    /// - Returns: The error.
    func connectFailed(_ error: any Error) -> UploadError {
        let failure: UploadError
        if let proxy = plan.route.proxy {
            let message = switch error {
            case ChannelError.connectTimeout:
                "connecting timed out"
            case let error as NIOConnectionError:
                error.connectionErrors.first.map { TransferErrorMapping.message(for: $0.error) } ?? "its name could not be resolved"
            default:
                TransferErrorMapping.message(for: error)
            }
            failure = .transferFailed(reason: .proxyConnectFailed(proxy: proxy.address, message: message))
        } else {
            failure = .transferFailed(reason: TransferErrorMapping.reason(for: error, host: plan.endpoint.host,
                                                                          port: plan.endpoint.port))
        }
        eventLoop.execute { self.abandon(failure) }
        return failure
    }

    /// Completes the promises no handler completed (completing one twice does nothing).
    private func abandon(_ error: UploadError) {
        tunnelEstablished?.fail(error)
        handshakeCompleted?.fail(error)
    }

    /// The HTTP/1.1 connection on `channel`, whose pipeline ends with its `ExchangeHandler`.
    private func http1Connection(_ channel: any Channel, id: ConnectionPoolStateMachine.ConnectionID) throws -> PooledConnection {
        guard let handler = try? channel.pipeline.syncOperations.handler(type: ExchangeHandler.self) else {
            throw UploadError.transferFailed(reason: .connectionLost(message: "the connection closed at once"))
        }
        return PooledConnection(id: id, channel: channel, handler: handler)
    }

    /// Sets up HTTP/2 on `channel` (ALPN chose it); the connection, once the server's first
    /// SETTINGS arrived.
    private func http2Connection(_ channel: any Channel, id: ConnectionPoolStateMachine.ConnectionID) -> EventLoopFuture<PooledConnection> {
        let settingsReceived = eventLoop.makePromise(of: Int.self)
        let multiplexer: NIOHTTP2Handler.StreamMultiplexer
        do {
            var configuration = NIOHTTP2Handler.ConnectionConfiguration()
            configuration.initialSettings = nioDefaultSettings + [HTTP2Setting(parameter: .enablePush, value: 0)]
            let operations = channel.pipeline.syncOperations
            multiplexer = try operations.configureHTTP2Pipeline(
                mode: .client, connectionConfiguration: configuration, streamConfiguration: .init()
            ) { pushed in pushed.close() }
            try operations.addHandler(HTTP2ConnectionWatcher(
                pooledIdleTimeout: plan.pooledIdleTimeout, settingsReceived: settingsReceived, goingAway: plan.goingAway))
        } catch {
            settingsReceived.fail(error)
            return eventLoop.makeFailedFuture(error)
        }
        return settingsReceived.futureResult.map { capacity in
            PooledConnection(id: id, channel: channel, multiplexer: multiplexer, streamCapacity: capacity)
        }
    }

    /// Adds (TLS, its handshake's watcher and) the HTTP/1 handlers at the pipeline's end; when
    /// the endpoint may speak HTTP/2, the HTTP handlers wait for the handshake's outcome.
    private func addExchangeHandlers(to channel: any Channel) throws {
        let operations = channel.pipeline.syncOperations
        if let tls = plan.tls, let handshakeCompleted {
            let host = plan.endpoint.host
            try operations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: host.isIPAddress ? nil : host))
            try operations.addHandler(TLSHandshakeWatcher(host: host, completed: handshakeCompleted))
            if plan.endpoint.mayMultiplex { return }
        }
        try addHTTP1Handlers(to: channel)
    }

    /// Adds `ResponseByteWatcher`, NIO's HTTP/1 client handlers and `ExchangeHandler`.
    private func addHTTP1Handlers(to channel: any Channel) throws {
        let operations = channel.pipeline.syncOperations
        let exchange = ExchangeHandler(pooledIdleTimeout: plan.pooledIdleTimeout)
        try operations.addHandler(ResponseByteWatcher(reportingTo: exchange))
        try operations.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
        try operations.addHandler(exchange)
    }
}
