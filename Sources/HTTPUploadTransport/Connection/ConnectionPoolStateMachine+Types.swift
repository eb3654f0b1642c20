/// The machine's vocabulary (identities, actions, places) and its bookkeeping's records.
extension ConnectionPoolStateMachine {
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

    /// A connection the pool counts: where it goes and where it is.
    struct Connection: Sendable {
        let endpoint: PoolEndpoint
        var place: Place
    }

    /// A lease waiting for a connection.
    struct Waiter: Sendable {
        let lease: LeaseID
        let fresh: Bool
    }

    /// One endpoint's connections and waiters.
    struct Endpoint: Sendable {
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
}
