import UploadModel

/// The send rate over a sliding window of recent progress samples.
///
/// Samples are kept at most `window / 20` apart, so memory stays bounded however often progress
/// is reported; the newest report is always counted.
struct RateEstimator: Sendable, Hashable {
    private struct Sample: Sendable, Hashable {
        var time: SchedulerInstant
        var bytes: Int64
    }

    /// How far back the rate looks.
    let window: Duration
    private var samples: [Sample] = []
    private var latest: Sample?

    /// Creates an estimator.
    ///
    /// - Parameter window: How far back the rate looks.
    init(window: Duration) {
        self.window = window
    }

    /// Forgets all samples (a new attempt starts).
    mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        latest = nil
    }

    /// Records the cumulative bytes sent at `time`.
    ///
    /// - Parameters:
    ///   - bytes: Bytes sent so far in this attempt.
    ///   - time: When.
    mutating func record(_ bytes: Int64, at time: SchedulerInstant) {
        let sample = Sample(time: time, bytes: bytes)
        latest = sample
        let spacing = Duration.nanoseconds(max(1, window.nanoseconds / 20))
        if let last = samples.last, time - last.time < spacing {
            // Too close to the last kept sample: only `latest` moves.
        } else {
            samples.append(sample)
        }
        let horizon = SchedulerInstant(nanoseconds: time.nanoseconds - window.nanoseconds)
        // Keep the newest sample at or before the horizon as the window's baseline.
        var drop = 0
        while drop + 1 < samples.count, samples[drop + 1].time <= horizon { drop += 1 }
        if drop > 0 { samples.removeFirst(drop) }
    }

    /// The rate between the window's oldest sample and the newest report.
    ///
    /// - Returns: Bytes per second, or nil with less than 10 ms of samples.
    var bytesPerSecond: Double? {
        guard let first = samples.first, let latest else { return nil }
        let elapsed = latest.time - first.time
        guard elapsed >= .milliseconds(10) else { return nil }
        return Double(latest.bytes - first.bytes) / elapsed.secondsValue
    }
}
