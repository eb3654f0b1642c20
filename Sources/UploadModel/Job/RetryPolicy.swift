/// When and how soon a failed attempt is retried automatically.
///
/// Retryable errors (see `UploadError.isRetryable`) are retried up to `maximumRetries` times with
/// exponential backoff and "equal jitter": retry *n* waits between half and all of
/// `min(maximumDelay, baseDelay × 2ⁿ⁻¹)`. A server's `Retry-After` is honoured as a lower bound;
/// one that asks for more than `maximumRetryAfter` parks the job for the user instead of
/// waiting silently.
public struct RetryPolicy: Sendable, Hashable {
    /// How many automatic retries a job gets (`--retry N`); 0 disables them.
    public var maximumRetries: Int
    /// The backoff before the first retry, before jitter.
    public var baseDelay: Duration
    /// The longest backoff, before jitter.
    public var maximumDelay: Duration
    /// The longest `Retry-After` waited for automatically.
    public var maximumRetryAfter: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumRetries: Automatic retries per job; default 3.
    ///   - baseDelay: First backoff; default 1 s.
    ///   - maximumDelay: Backoff cap; default 60 s.
    ///   - maximumRetryAfter: Longest `Retry-After` honoured automatically; default 5 minutes.
    public init(
        maximumRetries: Int = 3,
        baseDelay: Duration = .seconds(1),
        maximumDelay: Duration = .seconds(60),
        maximumRetryAfter: Duration = .seconds(300)
    ) {
        self.maximumRetries = max(0, maximumRetries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// The backoff before automatic retry number `retry`.
    ///
    /// - Parameters:
    ///   - retry: The retry's number, from 1.
    ///   - jitter: A random fraction in 0..<1 from the injected random source.
    /// - Returns: A delay in `[raw / 2, raw]`, where `raw = min(maximumDelay, baseDelay × 2^(retry−1))`.
    public func backoff(forRetry retry: Int, jitter: Double) -> Duration {
        let base = max(0, baseDelay.nanoseconds)
        let cap = max(0, maximumDelay.nanoseconds)
        let shift = min(max(0, retry - 1), 62)
        let (scaled, overflow) = base.multipliedReportingOverflow(by: Int64(1) << shift)
        let raw = overflow ? cap : min(cap, scaled)
        let half = raw / 2
        let fraction = min(max(jitter, 0), 1)
        return .nanoseconds(half + Int64((Double(raw - half) * fraction).rounded(.down)))
    }

    /// Decides what to do after a failed attempt.
    ///
    /// - Parameters:
    ///   - error: Why the attempt failed.
    ///   - retriesSoFar: Automatic retries the job already used.
    ///   - jitter: Draws a random fraction in 0..<1; called only when a retry is scheduled.
    /// - Returns: The delay before the retry, or nil when the job fails and waits for the user.
    public func delay(
        after error: UploadError,
        retriesSoFar: Int,
        jitter: () -> Double
    ) -> Duration? {
        guard error.isRetryable, retriesSoFar < maximumRetries else { return nil }
        if let retryAfter = error.retryAfter, retryAfter > maximumRetryAfter { return nil }
        let backoff = backoff(forRetry: retriesSoFar + 1, jitter: jitter())
        if let retryAfter = error.retryAfter { return max(backoff, retryAfter) }
        return backoff
    }
}
