import Multipart

/// What a job sends and where: everything needed to build its request again on any attempt or
/// in a later run. Stored in the journal as JSON (secrets in `headers` included, which is why the
/// journal is private to the user).
public struct UploadJobSpec: Sendable, Hashable, Codable {
    /// The target URL (`http` or `https`).
    public var url: String
    /// The HTTP method; `POST` unless told otherwise (`-X`).
    public var method: String
    /// Extra request headers (`-H`). `Content-Type` and `Content-Length` are set from the body
    /// and any given here are dropped.
    public var headers: [HeaderField]
    /// The field name the job's files are sent under (`--field`).
    public var fileField: String
    /// Text parameters, sent first, in this order.
    public var textFields: [FormTextField]
    /// Extra file parts (`-F name=@path`), sent after the text fields, in this order.
    public var extraFileParts: [ExtraFilePart]
    /// The job's own files, sent last under `fileField`: one normally, several in bundle mode.
    public var files: [QueuedFile]
    /// Automatic retries for this job; nil follows the queue's retry policy. The interface sets
    /// it, so a change of its Retries setting applies to jobs queued afterwards only.
    public var maximumRetries: Int?

    /// Creates a job spec.
    ///
    /// - Parameters:
    ///   - url: The target URL.
    ///   - method: The HTTP method.
    ///   - headers: Extra request headers.
    ///   - fileField: The field name for the job's files.
    ///   - textFields: Text parameters.
    ///   - extraFileParts: Extra file parts.
    ///   - files: The job's files with their stamps.
    ///   - maximumRetries: Automatic retries for this job; nil for the queue's policy.
    public init(
        url: String,
        method: String = "POST",
        headers: [HeaderField] = [],
        fileField: String = "file",
        textFields: [FormTextField] = [],
        extraFileParts: [ExtraFilePart] = [],
        files: [QueuedFile],
        maximumRetries: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.fileField = fileField
        self.textFields = textFields
        self.extraFileParts = extraFileParts
        self.files = files
        self.maximumRetries = maximumRetries
    }

    /// The sum of the queued files' sizes (unknown sizes count as zero): an estimate of the
    /// body's length before it is prepared.
    public var estimatedBytes: Int64 {
        files.reduce(0) { $0 + ($1.size ?? 0) }
    }
}
