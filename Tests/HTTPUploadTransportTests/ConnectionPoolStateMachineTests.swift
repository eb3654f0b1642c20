import Testing
@testable import HTTPUploadTransport
@testable import UploadModel

/// `ConnectionPoolStateMachine` without sockets: reuse, limits, waiting, fresh leases, closes
/// in every place, HTTP/2 connections carrying several leases (GOAWAY, shutdown), and random
/// interleavings that must never lose a connection.
@Suite("Connection pool state machine")
struct ConnectionPoolStateMachineTests {
    private typealias Machine = ConnectionPoolStateMachine
    private typealias ID = Machine.ConnectionID
    private let a = PoolEndpoint(scheme: "http", host: "127.0.0.1", port: 8080)
    private let b = PoolEndpoint(scheme: "https", host: "example.com", port: 443, options: ConnectionOptions(offersHTTP2: true))

    private func lease(_ value: Int) -> Machine.LeaseID { .init(value: value) }
    private func connection(_ value: Int) -> ID { .init(value: value) }

    @Test("a released connection is reused by the next lease to the same endpoint, not another")
    func reuse() {
        var machine = Machine(maximumPerEndpoint: 4)
        #expect(machine.lease(lease(1), to: a, fresh: false) == [.connect(connection(1), a)])
        #expect(machine.connected(connection(1)) == [.handOver(connection(1), to: lease(1))])
        #expect(machine.released(connection(1), reusable: true) == [])
        #expect(machine.lease(lease(2), to: a, fresh: false) == [.handOver(connection(1), to: lease(2))])
        #expect(machine.lease(lease(3), to: b, fresh: false) == [.connect(connection(2), b)])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("at the limit a lease waits, and is served by the next release or close")
    func waiting() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: a, fresh: false)
        _ = machine.connected(connection(1))
        #expect(machine.lease(lease(2), to: a, fresh: false) == [])
        #expect(machine.census.waiting == 1)
        #expect(machine.released(connection(1), reusable: true) == [.handOver(connection(1), to: lease(2))])
        #expect(machine.lease(lease(3), to: a, fresh: false) == [])
        #expect(machine.released(connection(1), reusable: false) == [.close(connection(1))])
        #expect(machine.census.closing == 1)
        #expect(machine.closed(connection(1)) == [.connect(connection(2), a)])
        #expect(machine.connected(connection(2)) == [.handOver(connection(2), to: lease(3))])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("a fresh lease never gets a used connection; at the limit an idle one is closed to make room")
    func fresh() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: a, fresh: false)
        _ = machine.connected(connection(1))
        _ = machine.released(connection(1), reusable: true)
        #expect(machine.lease(lease(2), to: a, fresh: true) == [.close(connection(1))])
        #expect(machine.closed(connection(1)) == [.connect(connection(2), a)])
        #expect(machine.connected(connection(2)) == [.handOver(connection(2), to: lease(2))])
    }

    @Test("a fresh lease cancelled at the head of the line lets the lease behind it take an idle connection")
    func cancelFreshAtHead() {
        var machine = Machine(maximumPerEndpoint: 3)
        for value in 1...3 {
            _ = machine.lease(lease(value), to: a, fresh: false)
            _ = machine.connected(connection(value))
        }
        for value in 1...3 { _ = machine.released(connection(value), reusable: true) }
        // At the limit, each serve for the fresh lease closes one idle connection to make room.
        #expect(machine.lease(lease(4), to: a, fresh: true) == [.close(connection(1))])
        #expect(machine.lease(lease(5), to: a, fresh: false) == [.close(connection(2))])
        #expect(machine.cancelLease(lease(4)) == [.handOver(connection(3), to: lease(5))])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("a connection the server closes while idle leaves the pool; the next lease connects anew")
    func idleClosedByServer() {
        var machine = Machine(maximumPerEndpoint: 2)
        _ = machine.lease(lease(1), to: a, fresh: false)
        _ = machine.connected(connection(1))
        _ = machine.released(connection(1), reusable: true)
        #expect(machine.closed(connection(1)) == [])
        #expect(machine.census == ConnectionPoolCensus())
        #expect(machine.lease(lease(2), to: a, fresh: false) == [.connect(connection(2), a)])
    }

    @Test("a leased connection that closes under its lease is gone; released afterwards, nothing happens")
    func leasedClosed() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: a, fresh: false)
        _ = machine.connected(connection(1))
        _ = machine.lease(lease(2), to: a, fresh: false)
        #expect(machine.closed(connection(1)) == [.connect(connection(2), a)])
        #expect(machine.released(connection(1), reusable: true) == [])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("connect failures fail their lease and serve the next waiter")
    func connectFailure() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: a, fresh: false)
        _ = machine.lease(lease(2), to: a, fresh: false)
        #expect(machine.connectFailed(connection(1)) == [.failLease(lease(1), .connectFailed), .connect(connection(2), a)])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("a lease cancelled while its connection opens leaves the connection idle for the next")
    func cancelWhileConnecting() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: a, fresh: false)
        #expect(machine.cancelLease(lease(1)) == [])
        #expect(machine.connected(connection(1)) == [])
        #expect(machine.census.idle == 1)
        #expect(machine.lease(lease(2), to: a, fresh: false) == [.handOver(connection(1), to: lease(2))])
    }

    @Test("warm opens connections before any lease, up to the count and the limit; leases take them while they open")
    func warm() {
        var machine = Machine(maximumPerEndpoint: 3)
        #expect(machine.warm(a, count: 5) == [.connect(connection(1), a), .connect(connection(2), a), .connect(connection(3), a)])
        #expect(machine.census.connecting == 3)
        #expect(machine.warm(a, count: 2) == [], "the count is of connections in all")
        // A lease takes the oldest opening connection instead of waiting or opening another.
        #expect(machine.lease(lease(1), to: a, fresh: false) == [])
        #expect(machine.place(of: connection(1)) == .connecting(for: lease(1)))
        #expect(machine.lease(lease(2), to: a, fresh: true) == [], "a connection never used suits a fresh lease")
        #expect(machine.place(of: connection(2)) == .connecting(for: lease(2)))
        #expect(machine.invariantViolation() == nil)
        #expect(machine.connected(connection(2)) == [.handOver(connection(2), to: lease(2))])
        #expect(machine.connected(connection(1)) == [.handOver(connection(1), to: lease(1))])
        // One no lease took goes idle, and the next lease gets it.
        #expect(machine.connected(connection(3)) == [])
        #expect(machine.census.idle == 1)
        #expect(machine.lease(lease(3), to: a, fresh: false) == [.handOver(connection(3), to: lease(3))])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("warm opens one connection to an endpoint that may speak HTTP/2; a failed one fails the lease that took it")
    func warmFailures() {
        var machine = Machine(maximumPerEndpoint: 4)
        #expect(machine.warm(b, count: 4) == [.connect(connection(1), b)])
        #expect(machine.lease(lease(1), to: b, fresh: false) == [])
        #expect(machine.lease(lease(2), to: b, fresh: false) == [], "waits for the connection that may carry both")
        #expect(machine.connectFailed(connection(1)) == [.failLease(lease(1), .connectFailed), .connect(connection(2), b)])
        #expect(machine.invariantViolation() == nil)
        // After shutdown, warm opens nothing; one opening at shutdown closes once open.
        #expect(machine.warm(a, count: 1) == [.connect(connection(3), a)])
        _ = machine.shutDown()
        #expect(machine.warm(a, count: 2) == [])
        #expect(machine.connected(connection(3)) == [.close(connection(3))])
    }

    @Test("shutdown fails waiters and leases whose connection is being opened, closes idle connections, and closes the rest as they come back")
    func shutdown() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: a, fresh: false)
        _ = machine.connected(connection(1))
        _ = machine.lease(lease(2), to: a, fresh: false)
        #expect(machine.lease(lease(3), to: b, fresh: false) == [.connect(connection(2), b)])
        let actions = machine.shutDown()
        #expect(actions == [.failLease(lease(3), .shutDown), .failLease(lease(2), .shutDown)])
        #expect(machine.census.waiting == 0)
        #expect(machine.released(connection(1), reusable: true) == [.close(connection(1))])
        #expect(machine.connected(connection(2)) == [.close(connection(2))])
        #expect(machine.lease(lease(4), to: a, fresh: false) == [.failLease(lease(4), .shutDown)])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("shutdown with a connect in flight fails its lease at once, however the connect ends",
          arguments: ["connected", "connectFailed", "closed"])
    func shutdownWithConnectInFlight(ending: String) {
        var machine = Machine(maximumPerEndpoint: 2)
        #expect(machine.lease(lease(1), to: a, fresh: false) == [.connect(connection(1), a)])
        #expect(machine.shutDown() == [.failLease(lease(1), .shutDown)])
        #expect(machine.place(of: connection(1)) == .connecting(for: nil))
        switch ending {
        case "connected": #expect(machine.connected(connection(1)) == [.close(connection(1))])
        case "connectFailed": #expect(machine.connectFailed(connection(1)) == [])
        default: #expect(machine.closed(connection(1)) == [])
        }
        #expect(machine.invariantViolation() == nil)
    }

    @Test("a later SETTINGS: a raised stream capacity serves waiting leases; a lowered one hands over none until streams end below it")
    func streamCapacityChanges() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: b, fresh: false)
        #expect(machine.connected(connection(1), streamCapacity: 1) == [.handOver(connection(1), to: lease(1))])
        #expect(machine.lease(lease(2), to: b, fresh: false) == [])
        #expect(machine.lease(lease(3), to: b, fresh: false) == [])
        #expect(machine.streamCapacityChanged(connection(1), to: 3)
            == [.handOver(connection(1), to: lease(2)), .handOver(connection(1), to: lease(3))])
        #expect(machine.streamCapacityChanged(connection(1), to: 1) == [])
        #expect(machine.place(of: connection(1)) == .multiplexed(leases: [lease(1), lease(2), lease(3)], capacity: 1))
        #expect(machine.lease(lease(4), to: b, fresh: false) == [])
        #expect(machine.streamEnded(connection(1), lease: lease(1)) == [])
        #expect(machine.streamEnded(connection(1), lease: lease(2)) == [])
        #expect(machine.streamEnded(connection(1), lease: lease(3)) == [.handOver(connection(1), to: lease(4))])
        #expect(machine.invariantViolation() == nil)
        #expect(machine.streamCapacityChanged(connection(9), to: 5) == [], "an unknown connection")
    }

    @Test("an HTTP/2 connection carries waiting leases at once up to its capacity; the rest get another")
    func multiplexing() {
        var machine = Machine(maximumPerEndpoint: 4)
        #expect(machine.lease(lease(1), to: b, fresh: false) == [.connect(connection(1), b)])
        #expect(machine.lease(lease(2), to: b, fresh: false) == [])
        #expect(machine.lease(lease(3), to: b, fresh: false) == [])
        #expect(machine.lease(lease(4), to: b, fresh: false) == [])
        #expect(machine.invariantViolation() == nil)
        #expect(machine.connected(connection(1), streamCapacity: 2)
            == [.handOver(connection(1), to: lease(1)), .handOver(connection(1), to: lease(2)), .connect(connection(2), b)])
        #expect(machine.place(of: connection(1)) == .multiplexed(leases: [lease(1), lease(2)], capacity: 2))
        #expect(machine.invariantViolation() == nil)
        #expect(machine.streamEnded(connection(1), lease: lease(1)) == [.handOver(connection(1), to: lease(4))])
        #expect(machine.connected(connection(2), streamCapacity: 2) == [.handOver(connection(2), to: lease(3))])
        #expect(machine.lease(lease(5), to: b, fresh: false) == [.handOver(connection(2), to: lease(5))])
        #expect(machine.census.leased == 2)
        for (id, value) in [(1, 2), (1, 4), (2, 3), (2, 5)] { _ = machine.streamEnded(connection(id), lease: lease(value)) }
        #expect(machine.census == {
            var census = ConnectionPoolCensus()
            census.idle = 2
            return census
        }())
        #expect(machine.invariantViolation() == nil)
    }

    @Test("leases to an endpoint that may speak HTTP/2 wait for its connection; over HTTP/1 they open their own")
    func waitingForProtocol() {
        var machine = Machine(maximumPerEndpoint: 4)
        #expect(machine.lease(lease(1), to: b, fresh: false) == [.connect(connection(1), b)])
        #expect(machine.lease(lease(2), to: b, fresh: false) == [])
        #expect(machine.connected(connection(1)) == [.handOver(connection(1), to: lease(1)), .connect(connection(2), b)])
        #expect(machine.lease(lease(3), to: b, fresh: false) == [.connect(connection(3), b)])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("plain http, and https without --http2, never wait for a connection being opened")
    func neverWaitingWithoutHTTP2() {
        let https = PoolEndpoint(scheme: "https", host: "example.com", port: 443)
        for endpoint in [a, https] {
            var machine = Machine(maximumPerEndpoint: 4)
            #expect(machine.lease(lease(1), to: endpoint, fresh: false) == [.connect(connection(1), endpoint)])
            #expect(machine.lease(lease(2), to: endpoint, fresh: false) == [.connect(connection(2), endpoint)])
        }
    }

    @Test("a failed connect stops the waiting: the next leases open connections of their own")
    func waitingEndsWithConnectFailure() {
        var machine = Machine(maximumPerEndpoint: 4)
        _ = machine.lease(lease(1), to: b, fresh: false)
        _ = machine.lease(lease(2), to: b, fresh: false)
        #expect(machine.connectFailed(connection(1)) == [.failLease(lease(1), .connectFailed), .connect(connection(2), b)])
        #expect(machine.lease(lease(3), to: b, fresh: false) == [.connect(connection(3), b)])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("after GOAWAY a connection takes no new lease and closes when its last lease ended")
    func goingAway() {
        var machine = Machine(maximumPerEndpoint: 4)
        _ = machine.lease(lease(1), to: b, fresh: false)
        _ = machine.connected(connection(1), streamCapacity: 4)
        _ = machine.lease(lease(2), to: b, fresh: false)
        #expect(machine.goingAway(connection(1)) == [])
        #expect(machine.place(of: connection(1)) == .draining(leases: [lease(1), lease(2)]))
        #expect(machine.lease(lease(3), to: b, fresh: false) == [.connect(connection(2), b)])
        #expect(machine.streamEnded(connection(1), lease: lease(1)) == [])
        #expect(machine.streamEnded(connection(1), lease: lease(2)) == [.close(connection(1))])
        #expect(machine.invariantViolation() == nil)
        // An unused one closes at once.
        _ = machine.connected(connection(2), streamCapacity: 4)
        _ = machine.streamEnded(connection(2), lease: lease(3))
        #expect(machine.goingAway(connection(2)) == [.close(connection(2))])
    }

    @Test("a fresh lease gets a new connection, closing an unused HTTP/2 one at the limit")
    func freshBesideMultiplexed() {
        var machine = Machine(maximumPerEndpoint: 1)
        _ = machine.lease(lease(1), to: b, fresh: false)
        _ = machine.connected(connection(1), streamCapacity: 4)
        _ = machine.streamEnded(connection(1), lease: lease(1))
        #expect(machine.lease(lease(2), to: b, fresh: true) == [.close(connection(1))])
        #expect(machine.closed(connection(1)) == [.connect(connection(2), b)])
        #expect(machine.invariantViolation() == nil)
    }

    @Test("shutdown closes unused HTTP/2 connections and the others when their last lease ended")
    func shutDownMultiplexed() {
        var machine = Machine(maximumPerEndpoint: 4)
        _ = machine.lease(lease(1), to: b, fresh: false)
        _ = machine.connected(connection(1), streamCapacity: 1)
        _ = machine.lease(lease(2), to: b, fresh: false)
        _ = machine.connected(connection(2), streamCapacity: 1)
        _ = machine.streamEnded(connection(2), lease: lease(2))
        #expect(machine.shutDown() == [.close(connection(2))])
        #expect(machine.streamEnded(connection(1), lease: lease(1)) == [.close(connection(1))])
    }

    @Test("random interleavings of leases, warm-ups, connects, releases, GOAWAYs, SETTINGS, closes, cancels and shutdowns never lose a connection or a lease",
          arguments: 0..<20)
    func randomInterleavings(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var machine = Machine(maximumPerEndpoint: 3)
        var pendingConnects: [ID] = []
        var leased: [ID: [Machine.LeaseID]] = [:]
        var idleOrClosing: Set<ID> = []
        var waiting: Set<Machine.LeaseID> = []
        var served: Set<Machine.LeaseID> = []
        var nextLease = 1

        func apply(_ actions: [Machine.Action]) {
            for action in actions {
                switch action {
                case let .connect(id, _): pendingConnects.append(id)
                case let .handOver(id, lease):
                    #expect(waiting.remove(lease) != nil, "\(lease) served twice or never asked")
                    if case .multiplexed? = machine.place(of: id) {} else {
                        #expect(leased[id] == nil, "\(id) handed to two leases")
                    }
                    leased[id, default: []].append(lease)
                    served.insert(lease)
                case let .close(id): idleOrClosing.insert(id)
                case let .failLease(lease, _): waiting.remove(lease)
                }
            }
        }

        /// Gives back what a lease held, as the pool does for each kind of connection.
        func release(_ id: ID, lease: Machine.LeaseID, reusable: Bool) -> [Machine.Action] {
            switch machine.place(of: id) {
            case .multiplexed?, .draining?: machine.streamEnded(id, lease: lease)
            default: machine.released(id, reusable: reusable)
            }
        }

        for _ in 0..<2_000 {
            switch random.next() % 9 {
            case 0, 1:
                let id = Machine.LeaseID(value: nextLease)
                nextLease += 1
                waiting.insert(id)
                apply(machine.lease(id, to: random.next() % 3 == 0 ? b : a, fresh: random.next() % 5 == 0))
            case 2:
                if let id = pendingConnects.popLast() {
                    switch random.next() % 6 {
                    case 0: apply(machine.connectFailed(id))
                    case 1, 2: apply(machine.connected(id, streamCapacity: Int(1 + random.next() % 4)))
                    default: apply(machine.connected(id))
                    }
                    if isOpen(machine.place(of: id)) { idleOrClosing.insert(id) }
                }
            case 3:
                if let id = leased.keys.min(), let lease = leased[id]?.first {
                    leased[id]?.removeFirst()
                    if leased[id]?.isEmpty == true { leased[id] = nil }
                    apply(release(id, lease: lease, reusable: random.next() % 3 != 0))
                    if isOpen(machine.place(of: id)) { idleOrClosing.insert(id) }
                }
            case 6:
                if let id = idleOrClosing.sorted().randomElement(using: &random) { apply(machine.goingAway(id)) }
            case 7:
                // A later SETTINGS; now and then, the pool shuts down.
                if let id = idleOrClosing.sorted().randomElement(using: &random) {
                    apply(machine.streamCapacityChanged(id, to: Int(1 + random.next() % 4)))
                }
                if random.next() % 400 == 0 { apply(machine.shutDown()) }
            case 4:
                // The server or the pool closes something: idle, closing or even leased.
                let candidates = idleOrClosing.sorted() + (random.next() % 4 == 0 ? leased.keys.sorted() : [])
                if let id = candidates.randomElement(using: &random) {
                    idleOrClosing.remove(id)
                    leased[id] = nil
                    apply(machine.closed(id))
                }
            case 5:
                if let lease = waiting.sorted(by: { $0.value < $1.value }).randomElement(using: &random) {
                    waiting.remove(lease)
                    apply(machine.cancelLease(lease))
                }
            case 8:
                if random.next() % 4 == 0 { apply(machine.warm(random.next() % 3 == 0 ? b : a, count: Int(1 + random.next() % 4))) }
            default:
                break
            }
            if let violation = machine.invariantViolation() {
                Issue.record("seed \(seed): \(violation)")
                return
            }
        }
        // Drain: every connect completes, every lease is released, every close completes; then
        // nothing may stay leased or waiting.
        for _ in 0..<10_000 {
            if let id = pendingConnects.popLast() {
                apply(machine.connected(id))
            } else if let id = leased.keys.min(), let lease = leased[id]?.first {
                leased[id]?.removeFirst()
                if leased[id]?.isEmpty == true { leased[id] = nil }
                apply(release(id, lease: lease, reusable: true))
            } else if let id = idleOrClosing.sorted().first(where: { machine.place(of: $0) == .closing }) {
                idleOrClosing.remove(id)
                apply(machine.closed(id))
            } else {
                break
            }
        }
        #expect(machine.census.leased == 0)
        #expect(machine.census.connecting == 0)
        #expect(machine.census.waiting == 0, "seed \(seed): leases left waiting with every connection back")
        #expect(waiting.isEmpty)
        #expect(machine.invariantViolation() == nil)
    }

    /// Whether a connection in `place` is open and carrying nothing or several leases (the
    /// server may close it, or send GOAWAY).
    private func isOpen(_ place: Machine.Place?) -> Bool {
        switch place {
        case .idle?, .multiplexed?: true
        default: false
        }
    }
}

/// A small deterministic random source for the interleaving test.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
