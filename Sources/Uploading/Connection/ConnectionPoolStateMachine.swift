/// The connection pool's bookkeeping, without I/O (NIO style): events in, `Action`s out.
///
/// Every connection is in exactly one place — connecting, idle, leased or closing — from the
/// moment the machine asks for it (`connect`) until the I/O layer reports it `closed`, so no
/// connection is ever lost from the count. Connections per endpoint, closing ones included,
/// never exceed `maximumPerEndpoint`; a lease that finds no room waits, first come first served,
/// and is served as soon as a connection is released or closed.
///
/// A lease may ask for a `fresh` connection (one never used before): that is how a request is
/// re-sent after a reused connection proved dead.
struct ConnectionPoolStateMachine: Sendable {
    /// A connection's identity, assigned by the machine.
    struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
        let value: Int
        static func < (left: Self, right: Self) -> Bool { left.value < right.value }
        var description: String { "c\(value)" }
    }

    /// A lease request's identity, assigned by the caller.
    struct LeaseID: Hashable, Sendable, CustomStringConvertible {
        let value: Int
        var description: String { "l\(value)" }
    }

    /// Why a lease was not served.
    enum LeaseFailure: Error, Sendable, Equatable {
        /// The pool is shutting down.
        case shutDown
        /// Connecting failed; the I/O layer's error is passed along separately.
        case connectFailed
    }

    /// What the I/O layer must do.
    enum Action: Sendable, Equatable {
        /// Open connection `id` to `endpoint` and report `connected` or `connectFailed`.
        case connect(ConnectionID, PoolEndpoint)
        /// Give connection `id` to the lease.
        case handOver(ConnectionID, to: LeaseID)
        /// Close connection `id` (it is already counted as closing) and report `closed`.
        case close(ConnectionID)
        /// Tell the lease it will get no connection.
        case failLease(LeaseID, LeaseFailure)
    }

    /// Where a connection is.
    enum Place: Sendable, Equatable {
        /// Being opened for a lease (nil when that lease was cancelled meanwhile).
        case connecting(for: LeaseID?)
        /// Open and unused, waiting for a lease.
        case idle
        /// In use by a lease.
        case leased(LeaseID)
        /// Closing; counted until the I/O layer reports it closed.
        case closing
    }

    private struct Connection: Sendable {
        let endpoint: PoolEndpoint
        var place: Place
    }

    private struct Waiter: Sendable {
        let lease: LeaseID
        let fresh: Bool
    }

    private struct Endpoint: Sendable {
        /// Idle connections, most recently released last.
        var idle: [ConnectionID] = []
        var count = 0
        var waiters: [Waiter] = []
    }

    /// The most connections open to one endpoint at a time.
    let maximumPerEndpoint: Int
    private var connections: [ConnectionID: Connection] = [:]
    private var endpoints: [PoolEndpoint: Endpoint] = [:]
    private var leases: [LeaseID: PoolEndpoint] = [:]
    private var nextConnection = 1
    private(set) var isShutDown = false

    /// Creates an empty pool.
    ///
    /// - Parameter maximumPerEndpoint: The most connections per endpoint (at least 1).
    init(maximumPerEndpoint: Int) {
        self.maximumPerEndpoint = max(1, maximumPerEndpoint)
    }

    // MARK: Events

    /// A request wants a connection.
    ///
    /// - Parameters:
    ///   - lease: The request's lease ID (unique while it is pending).
    ///   - endpoint: Where to.
    ///   - fresh: Whether it needs a connection that was never used.
    mutating func lease(_ lease: LeaseID, to endpoint: PoolEndpoint, fresh: Bool) -> [Action] {
        guard !isShutDown else { return [.failLease(lease, .shutDown)] }
        leases[lease] = endpoint
        endpoints[endpoint, default: Endpoint()].waiters.append(Waiter(lease: lease, fresh: fresh))
        return serve(endpoint)
    }

    /// A request no longer wants its connection (cancelled before it got one). A connection
    /// being opened for it goes to the next lease, or idle; the lease behind it in line may now
    /// be servable (a fresh lease at the head had held back the others).
    mutating func cancelLease(_ lease: LeaseID) -> [Action] {
        guard let endpoint = leases.removeValue(forKey: lease) else { return [] }
        endpoints[endpoint]?.waiters.removeAll { $0.lease == lease }
        for (id, connection) in connections where connection.place == .connecting(for: lease) {
            connections[id]?.place = .connecting(for: nil)
        }
        return serve(endpoint)
    }

    /// Connection `id` is open.
    mutating func connected(_ id: ConnectionID) -> [Action] {
        guard let connection = connections[id], case let .connecting(lease) = connection.place else { return [] }
        if isShutDown {
            connections[id]?.place = .closing
            return [.close(id)]
        }
        if let lease, leases.removeValue(forKey: lease) != nil {
            connections[id]?.place = .leased(lease)
            return [.handOver(id, to: lease)]
        }
        connections[id]?.place = .idle
        endpoints[connection.endpoint]?.idle.append(id)
        return serve(connection.endpoint)
    }

    /// Opening connection `id` failed; its lease fails (the I/O layer reports the error).
    mutating func connectFailed(_ id: ConnectionID) -> [Action] {
        guard let connection = connections.removeValue(forKey: id), case let .connecting(lease) = connection.place else {
            return []
        }
        endpoints[connection.endpoint]?.count -= 1
        var actions: [Action] = []
        if let lease, leases.removeValue(forKey: lease) != nil {
            actions.append(.failLease(lease, .connectFailed))
        }
        return actions + serve(connection.endpoint)
    }

    /// The lease holding connection `id` is done with it.
    ///
    /// - Parameter reusable: Whether the connection can carry another request (the exchange
    ///   ended cleanly with keep-alive); otherwise it is closed.
    mutating func released(_ id: ConnectionID, reusable: Bool) -> [Action] {
        guard let connection = connections[id], case .leased = connection.place else { return [] }
        guard reusable, !isShutDown else {
            connections[id]?.place = .closing
            return [.close(id)]
        }
        connections[id]?.place = .idle
        endpoints[connection.endpoint]?.idle.append(id)
        return serve(connection.endpoint)
    }

    /// Connection `id` closed, wherever it was (the server closed an idle one, a lease's
    /// exchange closed it, or the pool did).
    mutating func closed(_ id: ConnectionID) -> [Action] {
        guard let connection = connections.removeValue(forKey: id) else { return [] }
        endpoints[connection.endpoint]?.count -= 1
        endpoints[connection.endpoint]?.idle.removeAll { $0 == id }
        if case let .connecting(lease?) = connection.place, leases.removeValue(forKey: lease) != nil {
            return [.failLease(lease, .connectFailed)] + serve(connection.endpoint)
        }
        return serve(connection.endpoint)
    }

    /// Stops the pool: waiting leases fail, idle connections close, leased ones close when
    /// released, connections being opened close when open.
    mutating func shutDown() -> [Action] {
        isShutDown = true
        var actions: [Action] = []
        for (endpoint, state) in endpoints {
            actions += state.waiters.map { .failLease($0.lease, .shutDown) }
            actions += state.idle.map { .close($0) }
            for id in state.idle { connections[id]?.place = .closing }
            endpoints[endpoint]?.waiters = []
            endpoints[endpoint]?.idle = []
        }
        leases = leases.filter { lease, _ in
            connections.values.contains { $0.place == .connecting(for: lease) }
        }
        return actions
    }

    // MARK: Inspection

    /// Where connection `id` is, if the pool has it.
    func place(of id: ConnectionID) -> Place? {
        connections[id]?.place
    }

    /// How many connections are in each place, over every endpoint.
    var census: ConnectionPoolCensus {
        var census = ConnectionPoolCensus()
        for connection in connections.values {
            switch connection.place {
            case .connecting: census.connecting += 1
            case .idle: census.idle += 1
            case .leased: census.leased += 1
            case .closing: census.closing += 1
            }
        }
        census.waiting = endpoints.values.reduce(0) { $0 + $1.waiters.count }
        return census
    }

    /// Checks the machine's invariants; returns a description of the first one broken.
    func invariantViolation() -> String? {
        for (endpoint, state) in endpoints {
            let counted = connections.values.filter { $0.endpoint == endpoint }.count
            if counted != state.count { return "\(endpoint): count \(state.count) but \(counted) connections" }
            if state.count > maximumPerEndpoint { return "\(endpoint): \(state.count) connections over the limit" }
            for id in state.idle where connections[id]?.place != .idle { return "\(endpoint): \(id) listed idle but is not" }
            let idle = connections.filter { $0.value.endpoint == endpoint && $0.value.place == .idle }.count
            if idle != state.idle.count { return "\(endpoint): \(idle) idle connections, \(state.idle.count) listed" }
            if let head = state.waiters.first {
                if state.count < maximumPerEndpoint { return "\(endpoint): \(head.lease) waits with room to connect" }
                if !head.fresh, !state.idle.isEmpty { return "\(endpoint): \(head.lease) waits beside an idle connection" }
            }
        }
        return nil
    }

    // MARK: Serving waiters

    /// Serves the endpoint's waiters in order while there is a connection or room for one.
    private mutating func serve(_ endpoint: PoolEndpoint) -> [Action] {
        var actions: [Action] = []
        while var state = endpoints[endpoint], let waiter = state.waiters.first {
            if !waiter.fresh, let id = state.idle.popLast() {
                state.waiters.removeFirst()
                endpoints[endpoint] = state
                leases[waiter.lease] = nil
                connections[id]?.place = .leased(waiter.lease)
                actions.append(.handOver(id, to: waiter.lease))
            } else if state.count < maximumPerEndpoint {
                state.waiters.removeFirst()
                state.count += 1
                endpoints[endpoint] = state
                let id = ConnectionID(value: nextConnection)
                nextConnection += 1
                connections[id] = Connection(endpoint: endpoint, place: .connecting(for: waiter.lease))
                actions.append(.connect(id, endpoint))
            } else if waiter.fresh, !state.idle.isEmpty {
                // Make room for a fresh connection: close the idle one unused longest.
                let id = state.idle.removeFirst()
                endpoints[endpoint] = state
                connections[id]?.place = .closing
                actions.append(.close(id))
                break
            } else {
                break
            }
        }
        return actions
    }
}
