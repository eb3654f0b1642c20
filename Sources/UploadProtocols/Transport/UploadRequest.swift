import UploadModel

/// One attempt's request, ready for a transport: the checked message `FormBuilder` made for the
/// job, and what belongs to this attempt (its job and number, its timeouts).
public struct UploadRequest: Sendable {
    /// What is sent: method, target, every header in wire order (`Content-Length` included) and
    /// the body. The transport sends the headers as they are and **must not** send the body
    /// chunked; `message.body.makeReader()` streams the body from the first byte (once per attempt).
    public var message: RequestMessage
    /// The job this request belongs to (for logs).
    public var jobID: UploadJobID
    /// The attempt's number, from 1 (for logs).
    public var attempt: Int
    /// How long establishing the connection may take.
    public var connectTimeout: Duration
    /// How long no bytes may move before the transfer fails with `idleTimedOut`. There is no
    /// total deadline: a large file takes the time it takes.
    public var idleTimeout: Duration
    /// How the request reaches the server: trust, client certificate, proxy, redirects.
    public var connection: ConnectionOptions
    /// A tus upload instead of one request: the transport runs its requests (`TusClientStateMachine`)
    /// and `message` only lends them its headers (Ferry's and the user's; `Content-Type` and
    /// `Content-Length` are each request's own). Progress counts the bytes the server confirmed.
    public var tus: TusUploadPlan?
    /// Receives where a tus upload stands whenever it changes (created, an offset confirmed, a
    /// resumption noted), from any thread; the manager keeps it in the job and its row.
    public var tusCheckpointed: (@Sendable (TusCheckpoint) -> Void)?
    /// Calls its argument, from any thread, once every checkpoint reported so far is in the
    /// journal (written now, not after the journal's batching delay): a tus transfer that created
    /// an upload **must** wait for it before sending a byte to it, so a kill after the creation
    /// never loses the upload URL (a `--resume` would create another). Nil: nothing to wait for.
    public var tusCheckpointWritten: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    /// A resumable request's upload an earlier run began (`--resumable`, `ResumableCheckpoint`),
    /// with this very body: the attempt asks it for its offset first and sends only the rest.
    public var resumableUploadURL: UploadTarget?
    /// Whether the attempt that began ``resumableUploadURL`` may have completed it (its whole
    /// body went out): a server that no longer knows it then proves nothing, and the body is not
    /// sent whole again (`ResumableUploadStateMachine`).
    public var resumableUploadMayBeComplete = false
    /// Receives the upload's URL when a server names one for a resumable request (`104`), from
    /// any thread; the manager keeps it in the job and its row.
    public var resumableUploadNamed: (@Sendable (String) -> Void)?
    /// Receives the offset a resumable request goes on from (the server's, before its `PATCH`),
    /// from any thread: progress restarts there, and speed counts only what is sent from it.
    public var resumableUploadResumed: (@Sendable (Int64) -> Void)?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - message: The checked message.
    ///   - jobID: The job's ID.
    ///   - attempt: The attempt's number, from 1.
    ///   - connectTimeout: The connect timeout.
    ///   - idleTimeout: The idle timeout.
    ///   - connection: How the request reaches the server.
    ///   - tus: The tus upload to run, if the job is one.
    public init(message: RequestMessage, jobID: UploadJobID, attempt: Int, connectTimeout: Duration, idleTimeout: Duration,
                connection: ConnectionOptions = ConnectionOptions(), tus: TusUploadPlan? = nil) {
        self.message = message
        self.jobID = jobID
        self.attempt = attempt
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.connection = connection
        self.tus = tus
    }
}
