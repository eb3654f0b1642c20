import Multipart

/// Turns command-line style input (curl's `-F` and `-H`, positional files) into job specs.
///
/// Each positional file is one job carrying every `-F` parameter; with `bundle` all files go in
/// one job, one part per file under the same field name (RFC 7578 §4.3). With no positional
/// files, the `-F` parts alone make one job, as `curl -F` sends them.
public struct UploadPlanner: Sendable {
    /// The target URL.
    public var url: String
    /// The HTTP method.
    public var method: String
    /// Request headers.
    public var headers: [HeaderField]
    /// The field name positional files are sent under.
    public var fileField: String
    /// The parsed `-F` arguments, in order.
    public var formArguments: [CurlFormArgument]
    /// How the requests reach the server.
    public var connection: ConnectionOptions

    /// Creates a planner.
    ///
    /// - Parameters:
    ///   - url: The target URL.
    ///   - method: The HTTP method.
    ///   - headers: Request headers.
    ///   - fileField: The field name for positional files.
    ///   - formArguments: Parsed `-F` arguments.
    ///   - connection: How the requests reach the server.
    public init(url: String, method: String = "POST", headers: [HeaderField] = [], fileField: String = "file",
                formArguments: [CurlFormArgument] = [], connection: ConnectionOptions = ConnectionOptions()) {
        self.url = url
        self.method = method
        self.headers = headers
        self.fileField = fileField
        self.formArguments = formArguments
        self.connection = connection
    }

    /// The job specs for the given files.
    ///
    /// - Parameters:
    ///   - files: Positional file paths; their size and modification time are recorded now.
    ///   - bundle: Whether all files go in one request.
    /// - Returns: One spec per file, or one for all (or one for the `-F` parts alone).
    /// - Throws: `MultipartError` when a `-F name=<file` value cannot be read.
    public func jobs(for files: [String], bundle: Bool) throws(MultipartError) -> [UploadJobSpec] {
        var textFields: [FormTextField] = []
        var extraFileParts: [ExtraFilePart] = []
        for argument in formArguments {
            switch argument.value {
            case let .text(value):
                textFields.append(FormTextField(name: argument.name, value: value))
            case let .textFromFile(path):
                textFields.append(FormTextField(name: argument.name, value: try CurlFormArgument.readText(at: path)))
            case let .file(path):
                extraFileParts.append(ExtraFilePart(name: argument.name, path: path, filename: argument.filename,
                                                    contentType: argument.contentType))
            }
        }
        let queued = files.map(QueuedFile.capture(path:))
        let groups: [[QueuedFile]] = bundle || queued.isEmpty ? [queued] : queued.map { [$0] }
        // One spec made once, its copies differing in their files only: the jobs share its URL,
        // headers and parameters instead of holding a copy each.
        let batch = UploadJobSpec(url: url, method: method, headers: headers, fileField: fileField,
                                  textFields: textFields, extraFileParts: extraFileParts, files: [],
                                  connection: connection)
        return groups.map(batch.replacingFiles)
    }
}
