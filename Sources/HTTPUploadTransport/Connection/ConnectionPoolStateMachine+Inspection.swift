/// Questions about the machine's state, without changing it: where a connection is, the census,
/// the invariants (for the tests), and what `serve` asks.
extension ConnectionPoolStateMachine {
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
                if let id = unclaimedOpening(to: endpoint) { return "\(endpoint): \(head.lease) waits beside \(id), opening for no lease" }
                if !head.fresh, roomToMultiplex { return "\(endpoint): \(head.lease) waits beside a multiplexed connection with room" }
            }
        }
        return nil
    }

    /// The oldest of `candidates` carrying fewer leases than its capacity.
    func multiplexedWithRoom(_ candidates: [ConnectionID]) -> ConnectionID? {
        candidates.first { id in
            guard case let .multiplexed(carried, capacity)? = connections[id]?.place else { return false }
            return carried.count < capacity
        }
    }

    /// Whether multiplexed connection `id` carries no lease.
    func isUnused(_ id: ConnectionID) -> Bool {
        guard case let .multiplexed(carried, _)? = connections[id]?.place else { return false }
        return carried.isEmpty
    }

    /// The oldest connection to `endpoint` being opened for no lease (`warm`, or its lease was
    /// cancelled), if any.
    func unclaimedOpening(to endpoint: PoolEndpoint) -> ConnectionID? {
        var oldest: ConnectionID?
        for (id, connection) in connections where connection.place == .connecting(for: nil) && connection.endpoint == endpoint {
            if oldest.map({ id < $0 }) ?? true { oldest = id }
        }
        return oldest
    }

    /// Whether a connection to `endpoint` is being opened.
    func isOpeningConnection(to endpoint: PoolEndpoint) -> Bool {
        connections.values.contains { connection in
            guard connection.endpoint == endpoint, case .connecting = connection.place else { return false }
            return true
        }
    }
}
