/// Totals over the whole queue.
public struct UploadSummary: Sendable, Hashable {
    /// Jobs in the queue, whatever their state.
    public var total: Int
    /// Jobs waiting (including those waiting for an automatic retry).
    public var queued: Int
    /// Jobs with a request in flight.
    public var uploading: Int
    /// Jobs the server accepted.
    public var succeeded: Int
    /// Jobs parked after a failure.
    public var failed: Int
    /// Jobs the user cancelled.
    public var cancelled: Int
    /// Body bytes sent: whole bodies of succeeded jobs plus the current attempts' bytes.
    public var bytesSent: Int64
    /// Body bytes of all jobs (estimated from file sizes where a body was not prepared yet).
    public var totalBytes: Int64
    /// The sum of the in-flight jobs' recent rates, in bytes per second.
    public var bytesPerSecond: Double

    /// Creates a summary.
    public init(
        total: Int = 0, queued: Int = 0, uploading: Int = 0, succeeded: Int = 0, failed: Int = 0,
        cancelled: Int = 0, bytesSent: Int64 = 0, totalBytes: Int64 = 0, bytesPerSecond: Double = 0
    ) {
        self.total = total
        self.queued = queued
        self.uploading = uploading
        self.succeeded = succeeded
        self.failed = failed
        self.cancelled = cancelled
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
    }

    /// Whether nothing is queued or in flight.
    public var isIdle: Bool { queued == 0 && uploading == 0 }
}
