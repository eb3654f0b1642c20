import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization
import UploadModel

/// Connections kept per endpoint and lent to one request at a time (HTTP/1.1) or to up to their
/// stream capacity at once (HTTP/2, chosen by ALPN): carries out what `ConnectionPoolStateMachine`
/// decides (connect, hand over, close, fail) with SwiftNIO.
///
/// A connection is set up by `ConnectionSetup` (through a proxy when the endpoint's options say
/// so; a `CONNECT` tunnel and the TLS handshake included) and counts as connected only once it
/// can carry a request. The pool hears of every close through the channel's close future, so a
/// connection the server closes while idle leaves the pool at once.
final class ConnectionPool: Sendable {
    typealias ConnectionID = ConnectionPoolStateMachine.ConnectionID
    typealias LeaseID = ConnectionPoolStateMachine.LeaseID
    typealias Delivery = @Sendable (Result<PooledConnection, UploadError>) -> Void

    /// How connections are made.
    struct Settings: Sendable {
        /// The most connections per endpoint.
        var maximumPerEndpoint: Int
        /// How long a connection may stay unused before it closes.
        var pooledIdleTimeout: TimeAmount
        /// The TLS contexts for `https` endpoints, made when a connection needs one (outside the
        /// pool's lock) and kept while their files are unchanged.
        var tlsContexts: TLSContextCache
    }

    private struct Waiting: Sendable {
        let endpoint: PoolEndpoint
        let fresh: Bool
        let connectTimeout: TimeAmount
        let deliver: Delivery
    }

    private struct State: Sendable {
        var machine: ConnectionPoolStateMachine
        var waiting: [LeaseID: Waiting] = [:]
        var connections: [ConnectionID: PooledConnection] = [:]
        var connectFailures: [LeaseID: UploadError] = [:]
    }

    private let settings: Settings
    private let group: any EventLoopGroup
    private let state: Mutex<State>
    private let nextLease = Atomic<Int>(1)

    /// Creates an empty pool.
    ///
    /// - Parameters:
    ///   - settings: Limits, idle time and TLS.
    ///   - group: The event loops connections run on.
    init(settings: Settings, group: any EventLoopGroup) {
        self.settings = settings
        self.group = group
        self.state = Mutex(State(machine: ConnectionPoolStateMachine(maximumPerEndpoint: settings.maximumPerEndpoint)))
    }

    /// A new lease ID, for `lease` (known before the lease is asked for, so a caller can record
    /// it first).
    func makeLeaseID() -> LeaseID {
        LeaseID(value: nextLease.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    /// Asks for a connection; `deliver` receives it (or why there is none) on any thread.
    ///
    /// - Parameters:
    ///   - id: A new ID from `makeLeaseID()`.
    ///   - endpoint: Where to.
    ///   - fresh: Whether the connection must be a new one.
    ///   - connectTimeout: How long connecting for this lease may take.
    ///   - deliver: Receives the connection, which **must** be given back with `release`.
    func lease(_ id: LeaseID, to endpoint: PoolEndpoint, fresh: Bool, connectTimeout: TimeAmount,
               deliver: @escaping Delivery) {
        let actions = state.withLock { state in
            state.waiting[id] = Waiting(endpoint: endpoint, fresh: fresh, connectTimeout: connectTimeout, deliver: deliver)
            return state.machine.lease(id, to: endpoint, fresh: fresh)
        }
        perform(actions)
    }

    /// Withdraws a lease that has not been delivered; its `deliver` is not called.
    func cancelLease(_ id: LeaseID) {
        let actions = state.withLock { state in
            state.waiting[id] = nil
            return state.machine.cancelLease(id)
        }
        perform(actions)
    }

    /// Gives a leased connection back.
    ///
    /// - Parameters:
    ///   - connection: The connection.
    ///   - lease: The lease it was delivered to.
    ///   - reusable: Whether an HTTP/1.1 connection can carry another request; otherwise it is
    ///     closed (if it is not already). An HTTP/2 connection's fate is its own (GOAWAY, close).
    func release(_ connection: PooledConnection, lease: LeaseID, reusable: Bool) {
        perform(state.withLock { state in
            connection.streamCapacity == nil
                ? state.machine.released(connection.id, reusable: reusable)
                : state.machine.streamEnded(connection.id, lease: lease)
        })
    }

    /// How many connections are in each place.
    var census: ConnectionPoolCensus {
        state.withLock { $0.machine.census }
    }

    /// Closes every connection and fails waiting leases; returns once every connection closed.
    func shutdown() async {
        let (actions, channels) = state.withLock { state in
            (state.machine.shutDown(), state.connections.values.map(\.channel))
        }
        perform(actions)
        for channel in channels {
            channel.close(promise: nil)
            try? await channel.closeFuture.get()
        }
    }

    // MARK: Carrying out actions

    /// Carries out the machine's actions; a connection opened for no lease may take `connectTimeout`.
    private func perform(_ actions: [ConnectionPoolStateMachine.Action], connectTimeout: TimeAmount = .seconds(10)) {
        for action in actions {
            switch action {
            case let .connect(id, endpoint):
                connect(id, to: endpoint, unclaimedTimeout: connectTimeout)
            case let .handOver(id, lease):
                let (deliver, connection, again) = state.withLock { state -> (Delivery?, PooledConnection?, [ConnectionPoolStateMachine.Action]) in
                    guard let connection = state.connections[id] else {
                        // It closed between the decision and now: the lease asks again.
                        guard let waiting = state.waiting[lease] else { return (nil, nil, []) }
                        return (nil, nil, state.machine.lease(lease, to: waiting.endpoint, fresh: waiting.fresh))
                    }
                    return (state.waiting.removeValue(forKey: lease)?.deliver, connection, [])
                }
                if let deliver, let connection {
                    deliver(.success(connection))
                } else if let connection {
                    release(connection, lease: lease, reusable: true)
                }
                perform(again)
            case let .close(id):
                state.withLock { $0.connections[id] }?.channel.close(promise: nil)
            case let .failLease(lease, reason):
                let (deliver, failure) = state.withLock { state in
                    (state.waiting.removeValue(forKey: lease)?.deliver, state.connectFailures.removeValue(forKey: lease))
                }
                let error = failure ?? (reason == .shutDown
                    ? UploadError.transferFailed(reason: .other(message: "the transfer was stopped"))
                    : UploadError.transferFailed(reason: .connectFailed(message: "no connection")))
                deliver?(.failure(error))
            }
        }
    }

    /// Opens connections to `endpoint` before the leases that will want them ask
    /// (`ConnectionPoolStateMachine.warm`): each is taken by the first lease that finds it
    /// opening, or waits idle. Returns at once: the connects (and an https endpoint's TLS
    /// context, which reads the trusted certificates) run on an event loop.
    ///
    /// - Parameters:
    ///   - endpoint: Where to.
    ///   - count: How many connections the leases about to come will want.
    ///   - connectTimeout: How long connecting may take (a lease that takes one waits as long).
    func warm(_ endpoint: PoolEndpoint, count: Int, connectTimeout: TimeAmount) {
        let actions = state.withLock { $0.machine.warm(endpoint, count: count) }
        guard !actions.isEmpty else { return }
        group.any().execute { self.perform(actions, connectTimeout: connectTimeout) }
    }

    /// Opens connection `id` within its lease's connect timeout, or `unclaimedTimeout` while no
    /// lease has taken it.
    private func connect(_ id: ConnectionID, to endpoint: PoolEndpoint, unclaimedTimeout: TimeAmount) {
        let timeout = state.withLock { state -> TimeAmount in
            guard case let .connecting(lease?) = state.machine.place(of: id), let waiting = state.waiting[lease] else {
                return unclaimedTimeout
            }
            return waiting.connectTimeout
        }
        let route: ProxyRoute
        var tls: NIOSSLContext?
        do throws(UploadError) {
            if let identity = endpoint.tls { tls = try settings.tlsContexts.context(for: identity) }
            route = try ProxyRoute(to: endpoint)
        } catch {
            connectFailed(id, error: error)
            return
        }
        let setup = ConnectionSetup(
            plan: .init(endpoint: endpoint, route: route, tls: tls, pooledIdleTimeout: settings.pooledIdleTimeout,
                        http2Listener: .init(goingAway: { [weak self] in self?.goingAway(id) },
                                             streamCapacityChanged: { [weak self] in self?.streamCapacityChanged(id, to: $0) })),
            eventLoop: group.next()
        )
        let deadline = NIODeadline.now() + timeout
        let bootstrap = ClientBootstrap(group: setup.eventLoop)
            .connectTimeout(timeout)
            .uploadSocketOptions()
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try setup.initialize(channel) }
            }
        // To the proxy when the route has one. An address needs no resolver (and no
        // happy-eyeballs race).
        let (host, port) = route.proxy.map { ($0.host, $0.port) } ?? (endpoint.host, endpoint.port)
        let connecting = if host.isIPAddress, let address = try? SocketAddress(ipAddress: host, port: port) {
            bootstrap.connect(to: address)
        } else {
            bootstrap.connect(host: host, port: port)
        }
        connecting.whenComplete { result in
            switch result {
            case let .success(channel):
                // On the channel's loop, but not at once: this callback was registered from the
                // thread that asked for a lease, after `connect` handed the work to the loop, so
                // the handshake and the server's first bytes may already have arrived. The setup
                // loses nothing to that: its pipeline configures itself (see `ConnectionSetup`).
                channel.eventLoop.preconditionInEventLoop()
                setup.ready(channel, id: id, deadline: deadline).whenComplete { result in
                    switch result {
                    case let .success(connection):
                        self.connected(connection)
                    case let .failure(error):
                        self.connectFailed(id, error: error as? UploadError
                            ?? .transferFailed(reason: TransferErrorMapping.reason(for: error)))
                    }
                }
            case let .failure(error):
                self.connectFailed(id, error: setup.connectFailed(error))
            }
        }
    }

    private func connected(_ connection: PooledConnection) {
        let actions = state.withLock { state in
            state.connections[connection.id] = connection
            return state.machine.connected(connection.id, streamCapacity: connection.streamCapacity)
        }
        connection.channel.closeFuture.whenComplete { _ in
            let actions = self.state.withLock { state in
                state.connections[connection.id] = nil
                return state.machine.closed(connection.id)
            }
            self.perform(actions)
        }
        perform(actions)
    }

    private func goingAway(_ id: ConnectionID) {
        perform(state.withLock { $0.machine.goingAway(id) })
    }

    private func streamCapacityChanged(_ id: ConnectionID, to capacity: Int) {
        perform(state.withLock { $0.machine.streamCapacityChanged(id, to: capacity) })
    }

    private func connectFailed(_ id: ConnectionID, error: UploadError) {
        let actions = state.withLock { state in
            if case let .connecting(lease?) = state.machine.place(of: id), state.waiting[lease] != nil {
                state.connectFailures[lease] = error
            }
            return state.machine.connectFailed(id)
        }
        perform(actions)
    }
}
