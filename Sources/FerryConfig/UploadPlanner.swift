import FileSystem
import Multipart
import UploadModel

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

    /// The job specs for the given files, made from `template`.
    ///
    /// - Parameters:
    ///   - files: File paths; their size and modification time are recorded now.
    ///   - bundle: Whether all files go in one request.
    ///   - template: The shared request (``template()``).
    ///   - partFilenames: The filename a file's part is sent with, by path, where it is not the
    ///     path's last component (a folder's file: ``QueuedFile/partFilename``).
    /// - Returns: One spec per file, or one for all (or one for the `-F` parts alone).
    public static func jobs(for files: [String], bundle: Bool, template: UploadJobSpec,
                            partFilenames: [String: String] = [:]) -> [UploadJobSpec] {
        guard bundle || files.isEmpty else { return jobs(for: files, template: template, partFilenames: partFilenames) }
        let directory = FileSystemName.currentDirectory()
        return [template.replacingFiles(files.map { capture($0, in: directory, partFilenames: partFilenames) })]
    }

    /// The request every job of this plan shares, without files: URL, method, headers and the
    /// `-F` parts, with `-F name=<file` values read now. Jobs made from it share one copy of
    /// those fields instead of holding a copy each.
    ///
    /// - Returns: The spec, with no files.
    /// - Throws: `MultipartError` when a `-F name=<file` value cannot be read.
    public func template() throws(MultipartError) -> UploadJobSpec {
        var textFields: [FormTextField] = []
        var extraFileParts: [ExtraFilePart] = []
        for argument in formArguments {
            switch argument.value {
            case let .text(value):
                textFields.append(FormTextField(name: argument.name, value: value))
            case let .textFromFile(path):
                textFields.append(FormTextField(name: argument.name, value: try CurlFormArgument.readText(at: path)))
            case let .file(path):
                let absolute = PathName.absolute(path, in: FileSystemName.currentDirectory())
                extraFileParts.append(ExtraFilePart(name: argument.name, path: absolute, filename: argument.filename,
                                                    contentType: argument.contentType, textFieldsBefore: textFields.count,
                                                    size: QueuedFile.capture(path: absolute).size))
            }
        }
        return UploadJobSpec(url: url, method: method, headers: headers, fileField: fileField,
                             textFields: textFields, extraFileParts: extraFileParts, files: [],
                             connection: connection)
    }

    /// One job per file, made from `template`; each file's size and modification time are
    /// recorded now. A long list can be planned slice by slice.
    ///
    /// - Parameters:
    ///   - files: File paths.
    ///   - template: The shared request (``template()``).
    ///   - partFilenames: The filename a file's part is sent with, by path, where it is not the
    ///     path's last component.
    /// - Returns: The specs, in order.
    public static func jobs(for files: some Sequence<String>, template: UploadJobSpec,
                            partFilenames: [String: String] = [:]) -> [UploadJobSpec] {
        let directory = FileSystemName.currentDirectory()
        return files.map { template.replacingFiles([capture($0, in: directory, partFilenames: partFilenames)]) }
    }

    /// A file recorded now under its absolute path (so `--resume` finds it from any folder),
    /// with its part filename if it has one.
    private static func capture(_ path: String, in directory: String?, partFilenames: [String: String]) -> QueuedFile {
        var file = QueuedFile.capture(path: PathName.absolute(path, in: directory))
        file.partFilename = partFilenames[path]
        return file
    }
}
