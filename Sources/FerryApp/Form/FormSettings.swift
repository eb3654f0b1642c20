/// What the form says about requests: the part of the form saved in the journal.
public struct FormSettings: Hashable, Sendable, Codable {
    /// The URL uploads go to.
    public var url: String
    /// The HTTP method (`POST`, `PUT`, `PATCH`).
    public var method: String
    /// The field name files are sent under.
    public var fileField: String
    /// One request per file, or all in one.
    public var mode: UploadMode
    /// Uploads running at once.
    public var concurrency: Int
    /// Automatic retries of a failed upload.
    public var retries: Int
    /// Text parameters sent with every request.
    public var parameters: [FormRow]
    /// Request headers.
    public var headers: [FormRow]

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The HTTP method.
    ///   - fileField: The file field name.
    ///   - mode: One request per file, or all in one.
    ///   - concurrency: Uploads at once.
    ///   - retries: Automatic retries.
    ///   - parameters: Text parameters.
    ///   - headers: Request headers.
    public init(url: String = "", method: String = "POST", fileField: String = "file", mode: UploadMode = .perFile,
                concurrency: Int = 4, retries: Int = 3, parameters: [FormRow] = [], headers: [FormRow] = []) {
        self.url = url
        self.method = method
        self.fileField = fileField
        self.mode = mode
        self.concurrency = concurrency
        self.retries = retries
        self.parameters = parameters
        self.headers = headers
    }
}
