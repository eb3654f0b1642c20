import Multipart
import UploadModel

extension FormBuilder {
    /// One attempt's request for a job sent as a resumable upload (`spec.connection.resumesUploads`):
    /// `request(for:…)`, with the boundary of the upload an earlier run began (`checkpoint`) when
    /// there is one; when the body is then the very one that upload is of (its fingerprint), the
    /// request names the upload (`resumableUploadURL`), and the attempt goes on with it.
    ///
    /// - Parameters:
    ///   - spec: The job spec.
    ///   - jobID: The job's ID.
    ///   - attempt: The attempt's number.
    ///   - connectTimeout: The connect timeout.
    ///   - idleTimeout: The idle timeout.
    ///   - checkpoint: The upload an earlier attempt began, if the server named one.
    ///   - idempotencyKey: The job's key, when its requests carry one.
    ///   - earlierMayBeComplete: Whether the attempt that began the checkpoint's upload may have
    ///     completed it ("may have arrived").
    /// - Returns: The request.
    /// - Throws: See `message(for:)`.
    public func resumableRequest(
        for spec: UploadJobSpec,
        jobID: UploadJobID,
        attempt: Int,
        connectTimeout: Duration,
        idleTimeout: Duration,
        checkpoint: ResumableCheckpoint?,
        idempotencyKey: IdempotencyKey? = nil,
        earlierMayBeComplete: Bool = false
    ) throws(UploadError) -> UploadRequest {
        var builder = self
        if let checkpoint, let boundary = try? Boundary(checkpoint.boundary) { builder.encoder.boundary = boundary }
        var request = try builder.request(for: spec, jobID: jobID, attempt: attempt, connectTimeout: connectTimeout,
                                          idleTimeout: idleTimeout, idempotencyKey: idempotencyKey)
        if let checkpoint, checkpoint.bodyFingerprint == ResumableCheckpoint.fingerprint(of: request.message.body) {
            request.resumableUploadURL = try? UploadTarget(checkpoint.uploadURL, assumingHTTP: false)
            request.resumableUploadMayBeComplete = earlierMayBeComplete
        }
        return request
    }
}
