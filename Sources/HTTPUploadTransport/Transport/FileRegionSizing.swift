/// How many bytes the next file region holds. Progress counts completed writes and the idle
/// watchdog sees activity when one completes, and NIO reports a region's write only once it is
/// whole: so a region should take about `target` at the rate the connection moves, yet be as
/// large as possible on a fast link (fewer trips to the pump's queue).
///
/// It starts at `minimum`, at most doubles after each region (the first ones only fill the
/// socket's buffer, which says little about the link), and follows the rate measured down at
/// once. Pure.
struct FileRegionSizing: Sendable {
    /// How long a region's write should take.
    static let target: Duration = .milliseconds(100)

    /// The smallest region.
    let minimum: Int64
    /// The largest region.
    let maximum: Int64
    /// The size of the next region.
    private(set) var size: Int64

    /// Starts at `minimum`.
    ///
    /// - Parameters:
    ///   - minimum: The smallest region (positive).
    ///   - maximum: The largest region (at least `minimum`).
    init(minimum: Int64, maximum: Int64) {
        precondition(minimum > 0 && maximum >= minimum, "region sizes must be positive and ordered")
        self.minimum = minimum
        self.maximum = maximum
        self.size = minimum
    }

    /// Takes a region's write into account.
    ///
    /// - Parameters:
    ///   - bytes: The region's length.
    ///   - duration: From the region's hand-over to the next request for a piece (its write's
    ///     completion).
    mutating func regionWritten(_ bytes: Int64, in duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        let targetSeconds = Double(Self.target.components.attoseconds) / 1e18 + Double(Self.target.components.seconds)
        let fitting = elapsed > 0 ? Double(bytes) / elapsed * targetSeconds : Double(maximum)
        let next = min(Double(size) * 2, fitting, Double(maximum))
        size = max(minimum, Int64(next))
    }
}
