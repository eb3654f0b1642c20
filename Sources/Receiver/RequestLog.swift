/// One line of the request log that `ferry serve` prints on standard output, one JSON object
/// per request: `{"method", "path", "status", "bytes", "durationMs", "fields", "files"}`, plus
/// `"error"` when the request failed and `"replayed": true` when it repeated an
/// `Idempotency-Key` already stored (answered with the first answer, nothing stored).
///
/// `status` is 0 when no response was sent (a dropped or stalled connection). `bytes` counts
/// request body bytes actually read.
public struct RequestLog: Codable, Sendable, Hashable {
    /// The HTTP method, such as `POST`.
    public var method: String
    /// The request path with its query, as sent.
    public var path: String
    /// The status answered, or 0 when no answer was sent.
    public var status: Int
    /// Request body bytes read.
    public var bytes: Int64
    /// Time from receiving the request head to producing the answer, in milliseconds.
    public var durationMs: Double
    /// Text fields received (empty unless a stored upload).
    public var fields: [String: [String]]
    /// Files stored (empty unless a stored upload).
    public var files: [UploadedFile]
    /// Why the request failed, when it did.
    public var error: String?
    /// `true` when the request repeated a stored upload's `Idempotency-Key`; absent otherwise.
    public var replayed: Bool?

    /// Creates a log entry.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The request path.
    ///   - status: The status answered, 0 for none.
    ///   - bytes: Body bytes read.
    ///   - durationMs: Handling time in milliseconds.
    ///   - fields: Text fields received.
    ///   - files: Files stored.
    ///   - error: The failure, if any.
    ///   - replayed: `true` for a repeated `Idempotency-Key`.
    public init(
        method: String,
        path: String,
        status: Int,
        bytes: Int64,
        durationMs: Double,
        fields: [String: [String]] = [:],
        files: [UploadedFile] = [],
        error: String? = nil,
        replayed: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.bytes = bytes
        self.durationMs = durationMs
        self.fields = fields
        self.files = files
        self.error = error
        self.replayed = replayed
    }
}
