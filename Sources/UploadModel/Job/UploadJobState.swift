/// Where a job is in its life, as `UploadJob` shows it: the projection of the queue's phase
/// for the job (`JobPhase`).
///
/// ```
/// queued ──▶ uploading ──▶ succeeded
///   ▲  ▲         │ └─────▶ failed ──(retry)──▶ queued
///   │  └─(auto)──┘
///   └── cancelled ◀── (cancel from queued, uploading or failed)
/// ```
/// A job backing off before its automatic retry is `queued` with a `retryAt` instant.
public enum UploadJobState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for a free slot (or for its retry deadline).
    case queued
    /// A request is in flight.
    case uploading
    /// The server accepted the upload with a 2xx status.
    case succeeded
    /// The last attempt failed and no automatic retry is left or allowed; waits for the user.
    case failed
    /// The user cancelled the job.
    case cancelled

    /// Whether the job is done for good unless the user acts: succeeded or cancelled.
    public var isFinished: Bool {
        self == .succeeded || self == .cancelled
    }
}
