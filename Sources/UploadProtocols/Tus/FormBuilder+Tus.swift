import FileSystem
import Multipart
import UploadModel

extension FormBuilder {
    /// One attempt's request for a tus job (`spec.tus` set): the job's headers for the creation
    /// URL (`message`, an empty body) and the plan the transport runs.
    ///
    /// Checks, in order: the URL; the headers; that the job has exactly one file and no file
    /// parts; the file (missing, not regular, unreadable); that it did not change since it was
    /// queued; the metadata keys. An earlier upload (`checkpoint`) is gone on with only when it
    /// is of the file as it is now; otherwise a new upload is created.
    ///
    /// - Parameters:
    ///   - spec: The job spec; `spec.tus` **must** be set.
    ///   - jobID: The job's ID.
    ///   - attempt: The attempt's number.
    ///   - connectTimeout: The connect timeout.
    ///   - idleTimeout: The idle timeout.
    ///   - checkpoint: Where an earlier attempt left the upload, if one did.
    /// - Returns: The request, its `tus` plan set.
    /// - Throws: `UploadError.requestInvalid`, `.fileChangedSinceQueued`, `.multipartFailed` or
    ///   `.tusFailed`.
    public func tusRequest(
        for spec: UploadJobSpec,
        jobID: UploadJobID,
        attempt: Int,
        connectTimeout: Duration,
        idleTimeout: Duration,
        checkpoint: TusCheckpoint?
    ) throws(UploadError) -> UploadRequest {
        guard let options = spec.tus else { preconditionFailure("a tus request for a multipart job") }
        let target: UploadTarget
        do {
            target = try UploadTarget(spec.url)
        } catch {
            throw .requestInvalid(reason: .invalidTarget(error))
        }
        let headers: [HeaderField]
        do {
            headers = try RequestHeaders.build(target: target, userHeaders: spec.headers,
                                               contentType: TusRequest.bodyContentType, contentLength: 0)
        } catch {
            throw .requestInvalid(reason: .invalidHeader(error))
        }
        guard spec.files.count == 1, spec.extraFileParts.isEmpty, let file = spec.files.first else {
            throw .tusFailed(reason: .notOneFile(count: spec.files.count + spec.extraFileParts.count))
        }
        let snapshot: FileSnapshot
        do {
            snapshot = try FileInspector.inspect(file.path)
        } catch {
            throw .multipartFailed(error)
        }
        if let stamp = file.stamp, stamp.change(to: snapshot.stamp) != nil {
            throw .fileChangedSinceQueued(path: file.path)
        }
        let metadata = try TusMetadata.header(path: file.path, fileType: MIMETypes.standard.contentType(override: nil, filename: file.path),
                                              parameters: spec.textFields)
        let earlier = checkpoint.flatMap { $0.isOf(snapshot) ? $0 : nil }
        let uploadURL = earlier?.uploadURL.flatMap { try? UploadTarget($0, assumingHTTP: false) }
        let plan = TusUploadPlan(creationURL: target, file: snapshot, metadata: metadata,
                                 chunkSize: options.chunkSize ?? TusUploadPlan.defaultChunkSize,
                                 chunkSizeFollowsLink: options.chunkSize == nil, sendsChecksums: options.sendsChecksums,
                                 sendsDataInCreation: options.sendsDataInCreation, uploadURL: uploadURL,
                                 earlierNotes: earlier?.notes ?? [])
        let message = RequestMessage(method: "POST", target: target, headers: headers,
                                     body: RequestBody(segments: [], contentType: TusRequest.bodyContentType))
        return UploadRequest(message: message, jobID: jobID, attempt: attempt, connectTimeout: connectTimeout,
                             idleTimeout: idleTimeout, connection: spec.connection, tus: plan)
    }
}
