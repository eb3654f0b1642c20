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
/// Connections may be opened before any lease asks (`warm`: a command that knows its first
/// requests opens their connections while it prepares them); a lease takes one still opening
/// for no lease before it opens another.
///
/// An HTTP/2 connection (known once it is open: `connected(_:streamCapacity:)`) is `multiplexed`:
/// it carries up to its stream capacity of leases at once, and waiting leases are served from it
/// before any connection is opened. While the first connection to an endpoint that may speak
/// HTTP/2 (`PoolEndpoint.mayMultiplex`) is being opened, the leases behind it wait for it rather
/// than open connections of their own — until a connection to it turns out to speak HTTP/1, or
/// opening one fails. After the server's GOAWAY a multiplexed connection is `draining`: it takes
/// no new lease and is closed when its last one ends.
struct ConnectionPoolStateMachine: Sendable {
    /// The most connections open to one endpoint at a time.
    let maximumPerEndpoint: Int
    /// Every connection counted, by ID (changed only by the events).
    private(set) var connections: [ConnectionID: Connection] = [:]
    /// Every endpoint's bookkeeping (changed only by the events).
    private(set) var endpoints: [PoolEndpoint: Endpoint] = [:]
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

    /// Connections to `endpoint` are wanted before any lease asks for one: up to `count` to it
    /// in all (within the limit; one to an endpoint that may speak HTTP/2, which carries every
    /// lease at once) are opened now. The first lease that finds one opening takes it when it is
    /// open (`serve`); one no lease takes goes idle.
    ///
    /// - Parameters:
    ///   - endpoint: Where to.
    ///   - count: How many connections the leases about to come will want.
    mutating func warm(_ endpoint: PoolEndpoint, count: Int) -> [Action] {
        guard !isShutDown else { return [] }
        var state = endpoints[endpoint, default: Endpoint(expectsMultiplexing: endpoint.mayMultiplex)]
        let wanted = min(endpoint.mayMultiplex ? min(count, 1) : count, maximumPerEndpoint)
        var actions: [Action] = []
        while state.count < wanted {
            state.count += 1
            let id = ConnectionID(value: nextConnection)
            nextConnection += 1
            connections[id] = Connection(endpoint: endpoint, place: .connecting(for: nil))
            actions.append(.connect(id, endpoint))
        }
        endpoints[endpoint] = state
        // Leases waiting for a connection that may speak HTTP/2 take these meanwhile.
        return actions + serve(endpoint)
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

    // MARK: Serving waiters

    /// Serves the endpoint's waiters in order while there is a connection or room for one: a
    /// multiplexed connection with room first (the oldest), then an idle one, then one being
    /// opened for no lease, then a new one — unless the endpoint expects multiplexing and a
    /// connection to it is being opened.
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
            } else if let id = unclaimedOpening(to: endpoint) {
                // Opened ahead (`warm`), or for a lease cancelled since: this lease takes it
                // when it is open (`connected`); a connection never used suits a fresh lease too.
                state.waiters.removeFirst()
                endpoints[endpoint] = state
                connections[id]?.place = .connecting(for: waiter.lease)
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
}
