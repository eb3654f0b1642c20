import NIOCore

extension Duration {
    /// The duration as NIO's `TimeAmount` (nanoseconds, saturating).
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return .nanoseconds(overflow ? .max : scaled + attoseconds / 1_000_000_000)
    }
}
