import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// How a new connection of the pool is set up, from the TCP connection to the moment it can
/// carry a request: through the proxy's `CONNECT` tunnel when the route has one, then the TLS
/// handshake for `https`, then the HTTP handlers. A connection is ready only when all of that
/// is done, so a refused tunnel or a failed handshake is a connect failure, within the connect
/// timeout.
///
/// A ready connection's pipeline: `NIOSSLClientHandler` (https), `ResponseByteWatcher`, NIO's
/// HTTP/1 request encoder and response decoder, `ExchangeHandler`.
enum ConnectionSetup {
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
    }

    /// Adds the first handlers to a new channel, before it connects: the tunnel's handler when
    /// the route has a tunnel, otherwise (TLS and) the HTTP handlers. **Must** run on the
    /// channel's event loop (in the bootstrap's initializer).
    ///
    /// - Parameters:
    ///   - channel: The new channel.
    ///   - plan: What the connection is set up with.
    static func initialize(_ channel: any Channel, plan: Plan) throws {
        if case let .tunnel(proxy) = plan.route {
            try channel.pipeline.syncOperations.addHandler(ProxyTunnelHandler(
                proxy: proxy, targetHost: plan.endpoint.host, targetPort: plan.endpoint.port, eventLoop: channel.eventLoop))
        } else {
            try addExchangeHandlers(to: channel, plan: plan)
        }
    }

    /// Waits until a connected channel can carry requests: the tunnel up (if any), then the TLS
    /// handshake completed (for https), each before `deadline`. **Must** run on the channel's
    /// event loop. On failure the channel is closed.
    ///
    /// - Parameters:
    ///   - channel: The channel, connected and set up by `initialize`.
    ///   - id: The pool's name for the connection.
    ///   - plan: What the connection is set up with.
    ///   - deadline: When setting up fails with a timeout.
    /// - Returns: The connection, or the `UploadError` saying why there is none.
    static func ready(_ channel: any Channel, id: ConnectionPoolStateMachine.ConnectionID, plan: Plan,
                      deadline: NIODeadline) -> EventLoopFuture<PooledConnection> {
        let eventLoop = channel.eventLoop
        let outcome = eventLoop.makePromise(of: PooledConnection.self)
        let progress = NIOLoopBoundBox(Progress.connected, eventLoop: eventLoop)
        let timer = eventLoop.scheduleTask(deadline: deadline) {
            guard progress.value != .finished else { return }
            let reason: UploadError.TransferReason = if progress.value == .connected, case let .tunnel(proxy) = plan.route {
                .proxyConnectFailed(proxy: proxy.address, message: "it did not answer CONNECT within the connect timeout")
            } else {
                .connectTimedOut
            }
            progress.value = .finished
            outcome.fail(UploadError.transferFailed(reason: reason))
            channel.close(promise: nil)
        }
        let operations = channel.pipeline.syncOperations
        let tunnelled: EventLoopFuture<Void>.Isolated
        if case let .tunnel(proxy) = plan.route {
            if let tunnel = try? operations.handler(type: ProxyTunnelHandler.self) {
                tunnelled = tunnel.established.assumeIsolated().flatMapThrowing {
                    progress.value = .tunnelled
                    try addExchangeHandlers(to: channel, plan: plan)
                    operations.removeHandler(tunnel, promise: nil)
                }
            } else {
                let closed = UploadError.transferFailed(reason: .proxyConnectFailed(
                    proxy: proxy.address, message: "it closed the connection at once"))
                tunnelled = eventLoop.makeFailedFuture(closed).assumeIsolated()
            }
        } else {
            tunnelled = eventLoop.makeSucceededVoidFuture().assumeIsolated()
        }
        tunnelled.flatMap { () -> EventLoopFuture<Void> in
            guard plan.tls != nil, let watcher = try? operations.handler(type: TLSHandshakeWatcher.self) else {
                return eventLoop.makeSucceededVoidFuture()
            }
            return watcher.handshakeCompleted.assumeIsolated().map { operations.removeHandler(watcher, promise: nil) }.nonisolated()
        }.flatMapThrowing {
            guard let handler = try? operations.handler(type: ExchangeHandler.self) else {
                throw UploadError.transferFailed(reason: .connectionLost(message: "the connection closed at once"))
            }
            return PooledConnection(id: id, channel: channel, handler: handler)
        }.whenComplete { result in
            guard progress.value != .finished else { return }
            progress.value = .finished
            timer.cancel()
            switch result {
            case let .success(connection):
                outcome.succeed(connection)
            case let .failure(error):
                channel.close(promise: nil)
                outcome.fail(error as? UploadError ?? .transferFailed(reason: TransferErrorMapping.reason(for: error)))
            }
        }
        return outcome.futureResult
    }

    /// The error for a TCP connection that could not be made: to the proxy when the route has
    /// one (naming it), otherwise to the server.
    ///
    /// - Parameters:
    ///   - error: What connecting threw.
    ///   - route: The route.
    /// - Returns: The error.
    static func connectError(_ error: any Error, route: ProxyRoute) -> UploadError {
        guard let proxy = route.proxy else { return .transferFailed(reason: TransferErrorMapping.reason(for: error)) }
        let message = switch error {
        case ChannelError.connectTimeout:
            "connecting timed out"
        case let error as NIOConnectionError:
            error.connectionErrors.first.map { TransferErrorMapping.message(for: $0.error) } ?? "its name could not be resolved"
        default:
            TransferErrorMapping.message(for: error)
        }
        return .transferFailed(reason: .proxyConnectFailed(proxy: proxy.address, message: message))
    }

    /// How far setting up has come.
    private enum Progress {
        case connected, tunnelled, finished
    }

    /// Adds (TLS, its handshake's watcher and) the HTTP handlers at the pipeline's end.
    private static func addExchangeHandlers(to channel: any Channel, plan: Plan) throws {
        let operations = channel.pipeline.syncOperations
        if let tls = plan.tls {
            let host = plan.endpoint.host
            try operations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: host.isIPAddress ? nil : host))
            try operations.addHandler(TLSHandshakeWatcher(eventLoop: channel.eventLoop))
        }
        let exchange = ExchangeHandler(pooledIdleTimeout: plan.pooledIdleTimeout)
        try operations.addHandler(ResponseByteWatcher(reportingTo: exchange))
        try operations.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
        try operations.addHandler(exchange)
    }
}
