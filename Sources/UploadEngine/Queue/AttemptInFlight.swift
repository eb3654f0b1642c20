import FoundationEssentials
import UploadModel

/// What the machine keeps about the attempt a job has in flight (``JobPhase/uploading(_:)``):
/// its number, when its transfer began, and its send rate.
struct AttemptInFlight: Sendable {
    /// The attempt's number, from 1; transport events of any other attempt are ignored.
    let number: Int
    /// When the transfer began on the wall clock; nil until the transport has it.
    var startedAt: Date?
    /// When the transfer began on the scheduler's monotonic clock; nil until then.
    var startInstant: SchedulerInstant?
    /// The send rate over the sliding window.
    var rate: RateEstimator
    /// Whether the transport may have handed the body's last byte to the server
    /// (``UploadQueueStateMachine/transportSentWholeBody(_:attempt:)``): from then on the
    /// server may store the upload, and an attempt ended without an answer "may have arrived".
    var bodyMayHaveCompleted = false
    /// Whether the user cancelled after the body may have completed: the transfer was
    /// interrupted and its outcome decides (an answer that came first wins).
    var cancelRequested = false

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
