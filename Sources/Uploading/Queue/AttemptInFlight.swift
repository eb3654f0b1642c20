import Foundation

/// What the machine keeps about the attempt a job has in flight (``JobPhase/uploading(_:)``):
/// its number, when its transfer began, its send rate and its progress throttling.
struct AttemptInFlight: Sendable {
    /// The attempt's number, from 1; transport events of any other attempt are ignored.
    let number: Int
    /// When the transfer began on the wall clock; nil until the transport has it.
    var startedAt: Date?
    /// When the transfer began on the scheduler's monotonic clock; nil until then.
    var startInstant: SchedulerInstant?
    /// The send rate over the sliding window.
    var rate: RateEstimator
    /// When the last `progressed` event went out.
    var lastProgressEmit: SchedulerInstant?
    /// The byte count the last `progressed` event carried; -1 before the first.
    var emittedBytes: Int64 = -1
    /// Whether a `progressFlush` timer is set.
    var flushScheduled = false

    /// A new attempt whose transfer has not begun.
    ///
    /// - Parameters:
    ///   - number: The attempt's number.
    ///   - rateWindow: How far back its rate looks.
    init(number: Int, rateWindow: Duration) {
        self.number = number
        self.rate = RateEstimator(window: rateWindow)
    }
}
