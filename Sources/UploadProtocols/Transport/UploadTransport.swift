import UploadModel

/// Sends one request with a streamed body, counts the body bytes it wrote, and reports the outcome.
///
/// The upload modules hold no implementation: the real one, `HTTPTransport` (target
/// `HTTPUploadTransport`, on SwiftNIO), is made by the executable and handed to `UploadManager`;
/// tests hand it `FakeTransport`.
///
/// The manager calls `start` on its file queue — or, when the transport `startsFromAnyThread` and
/// the request is a plain one (not tus or resumable, no extra file part) whose files are all on a
/// local file system (`LocalFileSystems`), in its root queue's turn, wherever that runs (the event
/// loop that heard the previous job's outcome, say), which spares a small file two thread
/// hand-offs. The transport may call `completion` on any thread
/// (the manager handles it in its root queue's turn, on that thread when the queue is free, so the
/// call may take as long as a step of the queue's). Progress is not reported: the manager reads each
/// transfer's `bytesWritten` once per `progressInterval`, the one throttle progress passes.
///
/// A transport **must**:
/// - send exactly `request.message.body.contentLength` bytes with that `Content-Length`, reading the body
///   through a reader it opens for this request and closes when the request ends, however it ends;
/// - count the body bytes the server's machine acknowledged where the connection can tell (a TCP
///   socket's send queue), else those actually written to the connection (not handed to a
///   buffer), readable at any moment and from any thread as `TransportTask.bytesWritten`
///   (cheaply: it is read for every transfer ten times a second), so progress, speed and ETA
///   follow the server and 100 % means it holds the last byte;
/// - call `bodyCompleting` just before it hands the body's last byte to the connection — after
///   every other byte was handed over and the body's files passed their final check — and write
///   that byte only when it returned true; on false it **must not** write it, closes the
///   connection (so the server cannot complete the request) and reports a failure. Each sending
///   of the body asks again (a followed redirect, a re-send on a new connection). This is where
///   the manager records, ahead of the server, that the body may be complete. A tus request
///   (`request.tus`) is the exception: it never asks, since the server's offset says what
///   arrived, and its `bytesWritten` are the bytes the server confirmed;
/// - call `completion` exactly once: `.success` for any HTTP response (whatever its status; the
///   manager classifies it), with the first `UploadResponse.maximumCapturedBodyBytes` of the body;
///   `.failure` with `.transferFailed(reason:)` for connection failures and timeouts, or
///   `.multipartFailed(_:)` when reading the body failed (a file vanished or changed mid-send);
/// - not block in `start` (beyond reading the request's files) or in
///   `TransportTask.cancel()` and `bytesWritten` (on the root queue), and not hold a lock
///   those take while it calls `completion`. Calling back from within `start`, or from within
///   or after `cancel()`, is allowed: the manager handles every callback in its root queue's
///   turn and ignores those of aborted attempts.
public protocol UploadTransport: Sendable {
    /// Starts a transfer.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - bodyCompleting: Asked (on any thread, it does not block for long) just before the
    ///     body's last byte is handed to the connection: true lets it go, false holds it back.
    ///   - completion: Receives the outcome, once.
    /// - Returns: A handle that aborts the transfer.
    func start(
        _ request: UploadRequest,
        bodyCompleting: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void
    ) -> any TransportTask

    /// Whether `start` may be called on any thread — an event loop included — for a request
    /// whose files are all on local file systems: it then waits for nothing but those files.
    var startsFromAnyThread: Bool { get }
}

extension UploadTransport {
    /// False: every start runs on the manager's file queue.
    public var startsFromAnyThread: Bool { false }
}

/// A transfer in flight.
public protocol TransportTask: Sendable {
    /// Aborts the transfer now: the connection is closed and the body's files are released. The
    /// transport still calls `completion` — with a response that arrived first, or a failure —
    /// and the manager either ignores it or, after the body's last byte went, lets it decide.
    func cancel()

    /// Aborts the transfer as `cancel()` does, and also removes what it left on the server to
    /// be resumed (a tus upload: `DELETE`), because the job was cancelled or removed rather than
    /// stopped. Transports that leave nothing behind need not implement it.
    func cancelDiscardingUpload()

    /// The body bytes the server acknowledged so far, or written where the connection cannot
    /// tell (callable from any thread): the manager reads it once per `progressInterval` while
    /// the transfer runs, and when it ends.
    var bytesWritten: Int64 { get }
}

extension TransportTask {
    /// Aborts the transfer (`cancel()`): nothing on the server is kept for resuming.
    public func cancelDiscardingUpload() {
        cancel()
    }
}
