import Hummingbird

/// One upload request's body on its way into a ``FormDataReader``: what has been read, and the
/// fault decisions drawn for it (``FaultPlan``). A plain request's session lives for that request;
/// a resumable one's (``ResumableUploads``) outlives a cut connection and goes on with the
/// `PATCH` that resumes it.
///
/// Used by one request at a time (the registry hands a parked session to one `PATCH` only), so it
/// crosses tasks as `@unchecked Sendable`.
final class UploadSession: @unchecked Sendable {
    /// Where the parts go.
    let reader: FormDataReader
    /// The whole body's declared length, nil when chunked.
    let expectedLength: Int64?
    /// Whether the connection is dropped part-way (`--drop-rate`); cleared once it was, so a
    /// resumed upload is not dropped again for the same draw.
    var drop: Bool
    /// Whether the complete upload is answered 500 (`--fail-rate`).
    let failRandomly: Bool
    /// The status every upload is answered with (`--status`).
    let injectedStatus: Int?
    /// The `Idempotency-Key` claimed for the upload, completed or released when it ends.
    let idempotencyKey: String?
    /// Body bytes read so far, over every request of the upload.
    var bytesRead: Int64 = 0

    init(reader: FormDataReader, expectedLength: Int64?, drop: Bool, failRandomly: Bool, injectedStatus: Int?,
         idempotencyKey: String?) {
        self.reader = reader
        self.expectedLength = expectedLength
        self.drop = drop
        self.failRandomly = failRandomly
        self.injectedStatus = injectedStatus
        self.idempotencyKey = idempotencyKey
    }
}
