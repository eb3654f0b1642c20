/// How many of a pool's connections are in each place, and how many leases wait.
public struct ConnectionPoolCensus: Sendable, Hashable, CustomStringConvertible {
    /// Connections being opened.
    public var connecting = 0
    /// Open connections waiting for a request.
    public var idle = 0
    /// Connections carrying a request.
    public var leased = 0
    /// Connections being closed.
    public var closing = 0
    /// Requests waiting for a connection.
    public var waiting = 0

    /// Creates an empty census.
    public init() {}

    public var description: String {
        "connecting \(connecting), idle \(idle), leased \(leased), closing \(closing), waiting \(waiting)"
    }
}
