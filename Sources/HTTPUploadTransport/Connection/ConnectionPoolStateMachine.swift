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
///
/// An HTTP/2 connection (known once it is open: `connected(_:streamCapacity:)`) is `multiplexed`:
/// it carries up to its stream capacity of leases at once, and waiting leases are served from it
/// before any connection is opened. While the first connection to an endpoint that may speak
/// HTTP/2 (`PoolEndpoint.mayMultiplex`) is being opened, the leases behind it wait for it rather
/// than open connections of their own — until a connection to it turns out to speak HTTP/1, or
/// opening one fails. After the server's GOAWAY a multiplexed connection is `draining`: it takes
/// no new lease and is closed when its last one ends.
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
        /// HTTP/2: carrying `leases` (none when unused), at most `capacity` at once.
        case multiplexed(leases: Set<LeaseID>, capacity: Int)
        /// HTTP/2 after the server's GOAWAY: carrying its last `leases`, taking no more; closed
        /// when they have ended.
        case draining(leases: Set<LeaseID>)
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
        /// Multiplexed connections taking new leases, oldest first.
        var multiplexed: [ConnectionID] = []
        var count = 0
        var waiters: [Waiter] = []
        /// Whether leases wait for a connection being opened instead of opening their own: the
        /// endpoint may speak HTTP/2, and neither has a connection turned out to speak HTTP/1
        /// nor has opening one failed since the last that turned out to speak HTTP/2.
        var expectsMultiplexing: Bool
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
        endpoints[endpoint, default: Endpoint(expectsMultiplexing: endpoint.mayMultiplex)].waiters.append(Waiter(lease: lease, fresh: fresh))
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
    ///
    /// - Parameter streamCapacity: For an HTTP/2 connection, how many leases it may carry at
    ///   once (at least 1); nil for HTTP/1 (one at a time).
    mutating func connected(_ id: ConnectionID, streamCapacity: Int? = nil) -> [Action] {
        guard let connection = connections[id], case let .connecting(lease) = connection.place else { return [] }
        endpoints[connection.endpoint]?.expectsMultiplexing = streamCapacity != nil
        if isShutDown {
            connections[id]?.place = .closing
            return [.close(id)]
        }
        if let streamCapacity {
            var carried: Set<LeaseID> = []
            var actions: [Action] = []
            if let lease, leases.removeValue(forKey: lease) != nil {
                carried.insert(lease)
                actions.append(.handOver(id, to: lease))
            }
            connections[id]?.place = .multiplexed(leases: carried, capacity: max(1, streamCapacity))
            endpoints[connection.endpoint]?.multiplexed.append(id)
            return actions + serve(connection.endpoint)
        }
        if let lease, leases.removeValue(forKey: lease) != nil {
            connections[id]?.place = .leased(lease)
            // Leases that waited for it to speak HTTP/2 now open their own.
            return [.handOver(id, to: lease)] + serve(connection.endpoint)
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
        endpoints[connection.endpoint]?.expectsMultiplexing = false
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

    /// The lease `lease` carried by multiplexed connection `id` has ended (its stream is closed).
    /// A draining connection closes with its last lease; so does any after shutdown.
    mutating func streamEnded(_ id: ConnectionID, lease: LeaseID) -> [Action] {
        guard let connection = connections[id] else { return [] }
        switch connection.place {
        case .multiplexed(var carried, let capacity):
            carried.remove(lease)
            if isShutDown, carried.isEmpty {
                endpoints[connection.endpoint]?.multiplexed.removeAll { $0 == id }
                connections[id]?.place = .closing
                return [.close(id)]
            }
            connections[id]?.place = .multiplexed(leases: carried, capacity: capacity)
            return serve(connection.endpoint)
        case var .draining(carried):
            carried.remove(lease)
            guard carried.isEmpty else {
                connections[id]?.place = .draining(leases: carried)
                return []
            }
            connections[id]?.place = .closing
            return [.close(id)]
        case .connecting, .idle, .leased, .closing:
            return []
        }
    }

    /// Multiplexed connection `id` received the server's GOAWAY: it takes no new lease, and
    /// closes now if it carries none, otherwise when its last one has ended.
    mutating func goingAway(_ id: ConnectionID) -> [Action] {
        guard let connection = connections[id], case let .multiplexed(carried, _) = connection.place else { return [] }
        endpoints[connection.endpoint]?.multiplexed.removeAll { $0 == id }
        guard carried.isEmpty else {
            connections[id]?.place = .draining(leases: carried)
            return serve(connection.endpoint)
        }
        connections[id]?.place = .closing
        return [.close(id)] + serve(connection.endpoint)
    }

    /// Connection `id` closed, wherever it was (the server closed an idle one, a lease's
    /// exchange closed it, or the pool did).
    mutating func closed(_ id: ConnectionID) -> [Action] {
        guard let connection = connections.removeValue(forKey: id) else { return [] }
        endpoints[connection.endpoint]?.count -= 1
        endpoints[connection.endpoint]?.idle.removeAll { $0 == id }
        endpoints[connection.endpoint]?.multiplexed.removeAll { $0 == id }
        if case let .connecting(lease?) = connection.place, leases.removeValue(forKey: lease) != nil {
            return [.failLease(lease, .connectFailed)] + serve(connection.endpoint)
        }
        return serve(connection.endpoint)
    }

    /// Stops the pool: waiting leases fail, and so do leases whose connection is being opened
    /// (at once: the connect may take its whole timeout); idle connections (and unused
    /// multiplexed ones) close, leased ones close when released (multiplexed ones when their last
    /// lease ended), connections being opened close when open.
    mutating func shutDown() -> [Action] {
        isShutDown = true
        var actions: [Action] = []
        for (id, connection) in connections.sorted(by: { $0.key < $1.key }) {
            guard case let .connecting(lease?) = connection.place else { continue }
            connections[id]?.place = .connecting(for: nil)
            actions.append(.failLease(lease, .shutDown))
        }
        for (endpoint, state) in endpoints {
            actions += state.waiters.map { .failLease($0.lease, .shutDown) }
            actions += state.idle.map { .close($0) }
            for id in state.idle { connections[id]?.place = .closing }
            for id in state.multiplexed {
                guard case let .multiplexed(carried, _) = connections[id]?.place else { continue }
                if carried.isEmpty {
                    connections[id]?.place = .closing
                    actions.append(.close(id))
                } else {
                    connections[id]?.place = .draining(leases: carried)
                }
            }
            endpoints[endpoint]?.waiters = []
            endpoints[endpoint]?.idle = []
            endpoints[endpoint]?.multiplexed = []
        }
        leases = [:]
        return actions
    }

    /// The server of multiplexed connection `id` changed how many streams it takes at once (a
    /// later SETTINGS frame). Leases it carries beyond a lowered capacity run on (the server
    /// counts them as open); waiting leases are served up to a raised one.
    ///
    /// - Parameter capacity: The new capacity (at least 1).
    mutating func streamCapacityChanged(_ id: ConnectionID, to capacity: Int) -> [Action] {
        guard let connection = connections[id], case let .multiplexed(carried, _) = connection.place else { return [] }
        connections[id]?.place = .multiplexed(leases: carried, capacity: max(1, capacity))
        return serve(connection.endpoint)
    }

    // MARK: Inspection

    /// Where connection `id` is, if the pool has it.
    func place(of id: ConnectionID) -> Place? {
        connections[id]?.place
    }

    /// How many connections are in each place, over every endpoint (a multiplexed connection
    /// carrying no lease counts as idle, one carrying any as leased, a draining one as leased).
    var census: ConnectionPoolCensus {
        var census = ConnectionPoolCensus()
        for connection in connections.values {
            switch connection.place {
            case .connecting: census.connecting += 1
            case .idle: census.idle += 1
            case .leased, .draining: census.leased += 1
            case let .multiplexed(carried, _):
                if carried.isEmpty { census.idle += 1 } else { census.leased += 1 }
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
            let multiplexed = connections.filter {
                guard $0.value.endpoint == endpoint, case .multiplexed = $0.value.place else { return false }
                return true
            }
            if Set(multiplexed.keys) != Set(state.multiplexed) || multiplexed.count != state.multiplexed.count {
                return "\(endpoint): multiplexed connections \(multiplexed.keys.sorted()), \(state.multiplexed) listed"
            }
            var roomToMultiplex = false
            for connection in multiplexed.values {
                guard case let .multiplexed(carried, capacity) = connection.place else { continue }
                // A lowered capacity may leave more leases carried than it allows; `serve` hands
                // over none then.
                if carried.count < capacity { roomToMultiplex = true }
            }
            if let head = state.waiters.first {
                let opening = connections.values.contains {
                    guard $0.endpoint == endpoint, case .connecting = $0.place else { return false }
                    return true
                }
                let waitsForOpening = !head.fresh && state.expectsMultiplexing && opening
                if state.count < maximumPerEndpoint, !waitsForOpening {
                    return "\(endpoint): \(head.lease) waits with room to connect"
                }
                if !head.fresh, !state.idle.isEmpty { return "\(endpoint): \(head.lease) waits beside an idle connection" }
                if !head.fresh, roomToMultiplex { return "\(endpoint): \(head.lease) waits beside a multiplexed connection with room" }
            }
        }
        return nil
    }

    // MARK: Serving waiters

    /// Serves the endpoint's waiters in order while there is a connection or room for one: a
    /// multiplexed connection with room first (the oldest), then an idle one, then a new one —
    /// unless the endpoint expects multiplexing and a connection to it is being opened.
    private mutating func serve(_ endpoint: PoolEndpoint) -> [Action] {
        var actions: [Action] = []
        while var state = endpoints[endpoint], let waiter = state.waiters.first {
            if !waiter.fresh, let id = multiplexedWithRoom(state.multiplexed),
               case .multiplexed(var carried, let capacity)? = connections[id]?.place {
                state.waiters.removeFirst()
                endpoints[endpoint] = state
                leases[waiter.lease] = nil
                carried.insert(waiter.lease)
                connections[id]?.place = .multiplexed(leases: carried, capacity: capacity)
                actions.append(.handOver(id, to: waiter.lease))
            } else if !waiter.fresh, let id = state.idle.popLast() {
                state.waiters.removeFirst()
                endpoints[endpoint] = state
                leases[waiter.lease] = nil
                connections[id]?.place = .leased(waiter.lease)
                actions.append(.handOver(id, to: waiter.lease))
            } else if !waiter.fresh, state.expectsMultiplexing, isOpeningConnection(to: endpoint) {
                // The connection being opened will likely carry this lease too.
                break
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
            } else if waiter.fresh, let id = state.multiplexed.first(where: { isUnused($0) }) {
                // The same for an unused multiplexed connection.
                state.multiplexed.removeAll { $0 == id }
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

    /// The oldest of `candidates` carrying fewer leases than its capacity.
    private func multiplexedWithRoom(_ candidates: [ConnectionID]) -> ConnectionID? {
        candidates.first { id in
            guard case let .multiplexed(carried, capacity)? = connections[id]?.place else { return false }
            return carried.count < capacity
        }
    }

    /// Whether multiplexed connection `id` carries no lease.
    private func isUnused(_ id: ConnectionID) -> Bool {
        guard case let .multiplexed(carried, _)? = connections[id]?.place else { return false }
        return carried.isEmpty
    }

    /// Whether a connection to `endpoint` is being opened.
    private func isOpeningConnection(to endpoint: PoolEndpoint) -> Bool {
        connections.values.contains { connection in
            guard connection.endpoint == endpoint, case .connecting = connection.place else { return false }
            return true
        }
    }
}
