import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import NIOTLS
import UploadModel

/// How one new connection of the pool is set up, from the TCP connection to the moment it can
/// carry a request: through the proxy's `CONNECT` tunnel when the route has one, then the TLS
/// handshake for `https`, then the HTTP handlers. A connection is ready only when all of that
/// is done, so a refused tunnel or a failed handshake is a connect failure, within the connect
/// timeout.
///
/// A ready connection's pipeline: `NIOSSLClientHandler` (https), `ResponseByteWatcher`, NIO's
/// HTTP/1 request encoder and response decoder, `ExchangeHandler`. When the endpoint may speak
/// HTTP/2 (`PoolEndpoint.mayMultiplex`), NIO's `NIOTypedApplicationProtocolNegotiationHandler`
/// stands in for the HTTP handlers until the handshake completes, and adds them itself, in the
/// same call as the handshake's completion: if ALPN chose `h2`, `NIOHTTP2Handler` (its streams
/// each get an `ExchangeHandler`, see `PooledConnection`) and `HTTP2ConnectionWatcher`, and the
/// connection is ready at the server's first SETTINGS, which say how many streams it takes;
/// otherwise the HTTP/1 handlers.
///
/// Nothing the server sends may depend on when `ready` runs: the pool calls it from the
/// connect's callback, which it registers from the thread that asked for a lease, so it runs
/// on the event loop whenever that thread got to register it — on a busy machine after the
/// handshake has completed and an HTTP/2 server's first SETTINGS have arrived. So every handler
/// that must be in place before the server speaks is added from inside the pipeline: in
/// `initialize`, before the connect, or by NIO's ALPN handler at the handshake's end (after a
/// proxy's tunnel `ready` adds the TLS handlers, which is safe: the server says nothing before
/// the ClientHello they send). The tunnel's, the handshake's and the protocol's outcomes are
/// promises made before the connection exists (on the event loop it will run on), so they are
/// heard however late `ready` waits for them; every path completes them.
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
        /// Told (on the event loop) when an HTTP/2 server sends GOAWAY or changes its stream
        /// capacity.
        let http2Listener: HTTP2ConnectionWatcher.Listener
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
    /// Made for `https` endpoints.
    private let handshakeCompleted: EventLoopPromise<Void>?
    /// Made for `https` endpoints that may speak HTTP/2: succeeds with the HTTP version ALPN
    /// chose once its handlers are in the pipeline.
    private let negotiated: EventLoopPromise<NegotiatedHTTP>?

    /// The HTTP version a connection speaks, with what the pool needs to use it.
    private enum NegotiatedHTTP: Sendable {
        /// HTTP/1.1: the pipeline ends with the `ExchangeHandler`.
        case http1
        /// HTTP/2: opens the streams; succeeds with the stream capacity at the server's first
        /// SETTINGS (`HTTP2ConnectionWatcher`).
        case http2(NIOHTTP2Handler.StreamMultiplexer, settingsReceived: EventLoopFuture<Int>)
    }

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
        negotiated = plan.tls != nil && plan.endpoint.mayMultiplex ? eventLoop.makePromise() : nil
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
    /// TLS handshake completed (for https), then, for HTTP/2, the server's first SETTINGS, each
    /// before `deadline`. A connection to this machine gets its congestion control first
    /// (`LoopbackCongestionControl`). **Must** run on the channel's event loop, but may run late: all of
    /// that may already have happened. On failure the channel is closed.
    ///
    /// - Parameters:
    ///   - channel: The channel, connected and set up by `initialize`.
    ///   - id: The pool's name for the connection.
    ///   - deadline: When setting up fails with a timeout.
    /// - Returns: The connection, or the `UploadError` saying why there is none.
    func ready(_ channel: any Channel, id: ConnectionPoolStateMachine.ConnectionID,
               deadline: NIODeadline) -> EventLoopFuture<PooledConnection> {
        LoopbackCongestionControl.apply(to: channel)
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
        if let handshakeCompleted {
            step = step.flatMap { handshakeCompleted.futureResult }
        }
        step.flatMap { [self] () -> EventLoopFuture<PooledConnection> in
            if let watcher = try? operations.handler(type: TLSHandshakeWatcher.self) {
                operations.removeHandler(watcher, promise: nil)
            }
            guard let negotiated else {
                return eventLoop.makeCompletedFuture { try http1Connection(channel, id: id) }
            }
            return negotiated.futureResult.flatMap { [self] version in
                switch version {
                case .http1:
                    eventLoop.makeCompletedFuture { try http1Connection(channel, id: id) }
                case let .http2(multiplexer, settingsReceived):
                    settingsReceived.map { capacity in
                        PooledConnection(id: id, channel: channel, multiplexer: multiplexer, streamCapacity: capacity)
                    }
                }
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
        negotiated?.fail(error)
    }

    /// The HTTP/1.1 connection on `channel`, whose pipeline ends with its `ExchangeHandler`.
    private func http1Connection(_ channel: any Channel, id: ConnectionPoolStateMachine.ConnectionID) throws -> PooledConnection {
        guard let handler = try? channel.pipeline.syncOperations.handler(type: ExchangeHandler.self) else {
            throw UploadError.transferFailed(reason: .connectionLost(message: "the connection closed at once"))
        }
        return PooledConnection(id: id, channel: channel, handler: handler)
    }

    /// Adds (TLS, its handshake's watcher and) the HTTP handlers at the pipeline's end; when
    /// the endpoint may speak HTTP/2, NIO's ALPN handler instead, which adds the HTTP handlers
    /// for the protocol chosen when the handshake completes (holding back anything read
    /// meanwhile) and completes `negotiated`.
    private func addExchangeHandlers(to channel: any Channel) throws {
        let operations = channel.pipeline.syncOperations
        if let tls = plan.tls, let handshakeCompleted {
            let host = plan.endpoint.host
            try operations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: host.isIPAddress ? nil : host))
            try operations.addHandler(TLSHandshakeWatcher(host: host, completed: handshakeCompleted))
            if let negotiated {
                let negotiation = NIOTypedApplicationProtocolNegotiationHandler<NegotiatedHTTP> { [self] result, channel in
                    channel.eventLoop.makeCompletedFuture {
                        if case .negotiated("h2") = result { return try addHTTP2Handlers(to: channel) }
                        try addHTTP1Handlers(to: channel)
                        return .http1
                    }
                }
                try operations.addHandler(negotiation)
                negotiation.protocolNegotiationResult.cascade(to: negotiated)
                return
            }
        }
        try addHTTP1Handlers(to: channel)
    }

    /// Adds NIO's HTTP/2 handlers (client mode, no server push) and `HTTP2ConnectionWatcher` at
    /// the pipeline's end.
    ///
    /// - Returns: The HTTP/2 version, with its multiplexer and the server's first SETTINGS.
    private func addHTTP2Handlers(to channel: any Channel) throws -> NegotiatedHTTP {
        var configuration = NIOHTTP2Handler.ConnectionConfiguration()
        configuration.initialSettings = nioDefaultSettings + [HTTP2Setting(parameter: .enablePush, value: 0)]
        let operations = channel.pipeline.syncOperations
        let settingsReceived = channel.eventLoop.makePromise(of: Int.self)
        let watcher = HTTP2ConnectionWatcher(
            pooledIdleTimeout: plan.pooledIdleTimeout, settingsReceived: settingsReceived, listener: plan.http2Listener)
        do {
            let multiplexer = try operations.configureHTTP2Pipeline(
                mode: .client, connectionConfiguration: configuration, streamConfiguration: .init(),
                streamDelegate: HTTP2StreamEvents(watcher, eventLoop: channel.eventLoop)
            ) { pushed in pushed.close() }
            try operations.addHandler(watcher)
            return .http2(multiplexer, settingsReceived: settingsReceived.futureResult)
        } catch {
            settingsReceived.fail(error)
            throw error
        }
    }

    /// Adds `ResponseByteWatcher`, NIO's HTTP/1 client handlers and `ExchangeHandler`.
    private func addHTTP1Handlers(to channel: any Channel) throws {
        let operations = channel.pipeline.syncOperations
        // Plain TCP: the server's close comes as a half-close, probed for the reset that tells a
        // request it never read (`ExchangeHandler`).
        if plan.tls == nil { try channel.syncOptions?.setOption(.allowRemoteHalfClosure, value: true) }
        // Plain TCP (a forwarding proxy included): body files may go by sendfile.
        let exchange = ExchangeHandler(pooledIdleTimeout: plan.pooledIdleTimeout, sendsFileRegions: plan.tls == nil)
        try operations.addHandler(ResponseByteWatcher(reportingTo: exchange))
        // NIO's client handlers, in NIO's order, but with informational responses passed on: a
        // resumable upload's `104` names where it can be resumed (`ResumableTransfer`).
        let decoder = HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)
        try operations.addHandlers([HTTPRequestEncoder(), ByteToMessageHandler(decoder), NIOHTTPRequestHeadersValidator()])
        try operations.addHandler(exchange)
    }
}
