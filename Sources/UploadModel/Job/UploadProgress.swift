/// How far a job's current attempt has got.
public struct UploadProgress: Sendable, Hashable {
    /// Bytes of the request body written to the connection in the current attempt.
    public var bytesSent: Int64
    /// The body's exact length; nil until the body was prepared for a first attempt.
    public var totalBytes: Int64?
    /// The send rate over the recent sliding window, in bytes per second; nil until measurable.
    public var bytesPerSecond: Double?
    /// The time left at the current rate; nil when the rate or the total is unknown.
    public var estimatedTimeRemaining: Duration?

    /// Creates a progress value.
    ///
    /// - Parameters:
    ///   - bytesSent: Bytes written so far.
    ///   - totalBytes: The body's length.
    ///   - bytesPerSecond: The recent rate.
    ///   - estimatedTimeRemaining: The time left.
    public init(
        bytesSent: Int64 = 0,
        totalBytes: Int64? = nil,
        bytesPerSecond: Double? = nil,
        estimatedTimeRemaining: Duration? = nil
    ) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.estimatedTimeRemaining = estimatedTimeRemaining
    }

    /// The fraction sent, from 0 to 1; nil when the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(bytesSent) / Double(totalBytes))
    }
}
