/// Totals over the whole queue, in jobs and in the bytes of their files (not of the requests,
/// whose multipart framing is Ferry's business): the one calculation behind `ferry send`'s last
/// line and the interface's status line (``account(_:sign:)``).
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
    /// File bytes uploaded: the files of succeeded jobs, and the share of in-flight jobs' files
    /// their current attempts have sent.
    public var bytesSent: Int64
    /// File bytes of failed and cancelled jobs: finished without being uploaded.
    public var bytesSettled: Int64 = 0
    /// File bytes of all jobs. What cannot be sent (a folder, a missing file) counts nothing.
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

    /// Adds a job's share to the totals (`sign` 1), or takes it away again (-1, with the job as
    /// it was added): its state's count, its files' bytes and what of them is done.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - sign: 1 to add, -1 to remove.
    public mutating func account(_ job: UploadJob, sign: Int) {
        total += sign
        switch job.state {
        case .queued: queued += sign
        case .uploading: uploading += sign
        case .succeeded: succeeded += sign
        case .failed: failed += sign
        case .cancelled: cancelled += sign
        }
        let bytes = job.spec.estimatedBytes
        let weight = Int64(sign)
        totalBytes += weight * bytes
        switch job.state {
        case .succeeded:
            bytesSent += weight * bytes
        case .uploading:
            // The request's progress, scaled to the files (the request adds the form's framing).
            if let requestBytes = job.progress.totalBytes, requestBytes > 0 {
                let share = min(1, Double(job.progress.bytesSent) / Double(requestBytes))
                bytesSent += weight * Int64(share * Double(bytes))
            }
            bytesPerSecond += Double(sign) * (job.progress.bytesPerSecond ?? 0)
        case .failed, .cancelled:
            bytesSettled += weight * bytes
        case .queued:
            break
        }
    }
}
