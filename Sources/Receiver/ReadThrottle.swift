import NIOCore

/// Paces how fast a connection's request bodies are read (`--throttle`), as a debt of time:
/// each body byte read costs `1 / bytesPerSecond` seconds, and the next read waits until the
/// debt is paid. Pure (time passed in by the caller); ``ReadThrottleHandler`` carries it out.
struct ReadThrottle {
    /// The pace, in bytes a second.
    let bytesPerSecond: Int64
    /// When the bytes read so far are paid for.
    private var paidUntil: NIODeadline?

    /// A throttle at `bytesPerSecond`.
    ///
    /// - Parameter bytesPerSecond: The pace; at least 1.
    init(bytesPerSecond: Int64) {
        precondition(bytesPerSecond > 0, "a throttle needs a positive rate")
        self.bytesPerSecond = bytesPerSecond
    }

    /// Body bytes were read.
    ///
    /// - Parameters:
    ///   - count: How many.
    ///   - now: The current time.
    mutating func bytesRead(_ count: Int, now: NIODeadline) {
        let start = max(now, paidUntil ?? now)
        let cost = TimeAmount.nanoseconds(Int64((Double(count) * 1e9 / Double(bytesPerSecond)).rounded(.up)))
        paidUntil = start + cost
    }

    /// When the next read may happen.
    ///
    /// - Parameter now: The current time.
    /// - Returns: `nil` to read now, else the time to wait for.
    func nextRead(now: NIODeadline) -> NIODeadline? {
        guard let paidUntil, paidUntil > now else { return nil }
        return paidUntil
    }
}
