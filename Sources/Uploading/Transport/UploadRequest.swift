import Multipart

/// One attempt's request, ready for a transport: where, how, and the body to stream.
public struct UploadRequest: Sendable {
    /// The job this request belongs to (for logs).
    public var jobID: UploadJobID
    /// The attempt's number, from 1 (for logs).
    public var attempt: Int
    /// The target URL, checked to be `http` or `https` with a host.
    public var target: UploadTarget
    /// The HTTP method.
    public var method: String
    /// The request headers, `Content-Type` (with the boundary) included. The transport **must**
    /// add `Content-Length: body.contentLength` and must not send the body chunked.
    public var headers: [HeaderField]
    /// The body; `body.makeReader()` streams it from the first byte (once per attempt).
    public var body: MultipartBody
    /// How long establishing the connection may take.
    public var connectTimeout: Duration
    /// How long no bytes may move before the transfer fails with `idleTimedOut`. There is no
    /// total deadline: a large file takes the time it takes.
    public var idleTimeout: Duration

    /// Creates a request.
    public init(
        jobID: UploadJobID,
        attempt: Int,
        target: UploadTarget,
        method: String,
        headers: [HeaderField],
        body: MultipartBody,
        connectTimeout: Duration,
        idleTimeout: Duration
    ) {
        self.jobID = jobID
        self.attempt = attempt
        self.target = target
        self.method = method
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
    }
}
