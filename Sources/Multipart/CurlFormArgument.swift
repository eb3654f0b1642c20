import FileSystem
import Glibc

/// One `-F` argument in curl's syntax, parsed.
///
/// - `name=value`: a text field;
/// - `name=@path`: a file part read from `path`;
/// - `name=<path`: a text field whose value is the content of `path`;
/// - each may be followed by `;type=MIME`, `;filename=NAME` (files) and `;headers=Name: value`.
///
/// A value holding `;` or `"` is written in double quotes, with `\"` and `\\` inside, as curl
/// reads it: `-F 'file=@"a;b.txt";filename="x;y.txt"'`. Where curl would skip an unknown
/// `;param` with a warning, Ferry stops with an error, so nothing is dropped silently.
public struct CurlFormArgument: Sendable, Hashable {
    /// What the argument's value is.
    public enum Value: Sendable, Hashable {
        /// A literal text value.
        case text(String)
        /// A file to send as a file part.
        case file(path: String)
        /// A file whose content is sent as a text value.
        case textFromFile(path: String)
    }

    /// The field name.
    public var name: String
    /// The value.
    public var value: Value
    /// `;filename=`: the filename sent for a file part.
    public var filename: String?
    /// `;type=`: the part's content type.
    public var contentType: String?
    /// `;headers=`: extra part headers.
    public var headers: [HeaderField]

    /// Creates an argument from its pieces.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    ///   - filename: The filename for a file part.
    ///   - contentType: The part's content type.
    ///   - headers: Extra part headers.
    public init(name: String, value: Value, filename: String? = nil, contentType: String? = nil, headers: [HeaderField] = []) {
        self.name = name
        self.value = value
        self.filename = filename
        self.contentType = contentType
        self.headers = headers
    }

    /// Parses a `-F` argument.
    ///
    /// - Parameter argument: The text after `-F`, e.g. `photo=@a.jpg;type=image/jpeg`.
    /// - Returns: The parsed argument.
    /// - Throws: `CurlFormSyntaxError` saying what is wrong and where.
    public static func parse(_ argument: String) throws(CurlFormSyntaxError) -> CurlFormArgument {
        guard let equals = argument.firstIndex(of: "=") else { throw .missingEquals(argument) }
        let name = String(argument[..<equals])
        guard !name.isEmpty else { throw .emptyName(argument) }
        var scanner = ParameterScanner(Substring(argument[argument.index(after: equals)...]))
        let value: Value
        switch scanner.peek() {
        case "@":
            scanner.skip()
            let path = try scanner.word(in: argument)
            guard !path.isEmpty else { throw .emptyPath(argument) }
            value = .file(path: path)
        case "<":
            scanner.skip()
            let path = try scanner.word(in: argument)
            guard !path.isEmpty else { throw .emptyPath(argument) }
            value = .textFromFile(path: path)
        default:
            value = .text(try scanner.word(in: argument))
        }
        var parsed = CurlFormArgument(name: name, value: value, filename: nil, contentType: nil, headers: [])
        while scanner.skipSemicolon() {
            let key = scanner.key()
            let text = try scanner.word(in: argument)
            switch key.lowercased() {
            case "type":
                guard text.contains("/") else { throw .badContentType(text, argument) }
                parsed.contentType = text
            case "filename":
                parsed.filename = text
            case "headers":
                guard !text.hasPrefix("@") else { throw .unsupportedParameter("headers=@file", argument) }
                guard let header = HeaderField.parse(text) else { throw .badHeader(text, argument) }
                parsed.headers.append(header)
            case "encoder":
                throw .unsupportedParameter("encoder", argument)
            default:
                throw .unknownParameter(key, argument)
            }
        }
        return parsed
    }

    /// Parses a `--form-string` argument: `NAME=VALUE` with the value taken as it is, as curl
    /// does (a leading `@` or `<`, a `;type=` or quotes in it mean nothing).
    ///
    /// - Parameter argument: The text after `--form-string`, e.g. `note=@not a file;type=x`.
    /// - Returns: A text argument.
    /// - Throws: `CurlFormSyntaxError.missingEquals` or `.emptyName`.
    public static func literal(_ argument: String) throws(CurlFormSyntaxError) -> CurlFormArgument {
        guard let equals = argument.firstIndex(of: "=") else { throw .missingEquals(argument) }
        guard equals != argument.startIndex else { throw .emptyName(argument) }
        return CurlFormArgument(name: String(argument[..<equals]), value: .text(String(argument[argument.index(after: equals)...])))
    }

    /// The form part this argument stands for.
    ///
    /// - Returns: The part; for `name=<path` the file is read now.
    /// - Throws: `MultipartError.fileRejected` if a `<` file cannot be read as UTF-8 text.
    public func formPart() throws(MultipartError) -> FormPart {
        switch value {
        case let .text(text):
            return FormPart(name: name, content: .text(text), contentType: contentType, extraHeaders: headers)
        case let .textFromFile(path):
            return FormPart(name: name, content: .text(try Self.readText(at: path)), contentType: contentType,
                            extraHeaders: headers)
        case let .file(path):
            return FormPart(name: name, content: .file(.path(path)),
                            filename: filename ?? PathName.lastComponent(of: path),
                            contentType: contentType, extraHeaders: headers)
        }
    }

    /// Reads the value of a `name=<path` argument, as curl does when it starts.
    ///
    /// - Parameter path: The file to read.
    /// - Returns: Its content as text (invalid UTF-8 is replaced with U+FFFD).
    /// - Throws: `MultipartError` when the file cannot be checked, opened or read.
    public static func readText(at path: String) throws(MultipartError) -> String {
        let snapshot = try FileInspector.inspect(path)
        let descriptor = try FileInspector.openUnchanged(snapshot)
        defer { close(descriptor) }
        switch DescriptorInput.readToEnd(descriptor) {
        case let .success(bytes): return String(decoding: bytes, as: UTF8.self)
        case let .failure(failure): throw .fileRejected(path: path, reason: .notReadable(errno: failure.errno))
        }
    }
}
