import ArgumentParser
import FerryConfig
import Multipart
import UploadModel
import UploadProtocols

/// The form options `ferry` and `ferry send` share: where to send and what to send with each file.
struct FormOptions: ParsableArguments {
    @Option(name: .long, help: "The URL to upload to (http:// or https://).")
    var url: String?

    @Option(name: .long, help: ArgumentHelp(
        "Take the URL, method, parameters, headers and the other settings from this profile in "
            + "$XDG_CONFIG_HOME/ferry/profiles.toml (default ~/.config/ferry/profiles.toml); options given here win.",
        valueName: "name"))
    var profile: String?

    @Option(name: .customLong("field"), help: "The field name files are sent under (default: file).")
    var fieldOption: String?

    @Option(name: .customShort("F"), help: ArgumentHelp(
        "A form part in curl's syntax: NAME=VALUE, NAME=@PATH[;type=MIME][;filename=NAME] or NAME=<PATH.",
        valueName: "part"))
    var form: [OrderedArgument] = []

    @Option(name: .customLong("form-string"), help: ArgumentHelp(
        "A text part NAME=VALUE, the value taken as it is (a leading @ or <, ;type= or quotes mean nothing), in order with -F.",
        valueName: "part"))
    var formString: [OrderedArgument] = []

    @Option(name: .customShort("H"), help: ArgumentHelp(
        "A request header, 'Name: value'; or @FILE: headers read from FILE, one per line (# comments).",
        valueName: "header"))
    var header: [String] = []

    @Option(name: [.customShort("u"), .long], help: ArgumentHelp(
        "Basic authentication (an Authorization header); -H @FILE keeps it out of the command line.",
        valueName: "user:password"))
    var user: String?

    @Option(name: .customLong("oauth2-bearer"), help: ArgumentHelp(
        "Send 'Authorization: Bearer TOKEN'.", valueName: "token"))
    var oauth2Bearer: String?

    // Numbers are taken whatever they start with, so `--retry -1` is told it must be 0 or more
    // instead of "missing value".
    @Option(name: .customLong("concurrency"), parsing: .unconditional, help: "How many uploads run at once (default: 4).")
    var concurrencyOption: Int?

    @Option(name: .customLong("retry"), parsing: .unconditional, help: "Automatic retries of a failed upload (0 disables; default: 3).")
    var retryOption: Int?

    @OptionGroup(title: "Connection")
    var connection: ConnectionArguments

    /// The field name files are sent under.
    var field: String { fieldOption ?? "file" }
    /// How many uploads run at once.
    var concurrency: Int { concurrencyOption ?? 4 }
    /// Automatic retries of a failed upload.
    var retry: Int { retryOption ?? 3 }

    /// Whether any `-F` or `--form-string` part was given on the command line (a profile's
    /// parameters, placed before position 0, do not count: they go with files).
    var hasFormParts: Bool { (form + formString).contains { $0.position >= 0 } }

    /// The `-F` and `--form-string` arguments, parsed, in the order they were given.
    ///
    /// - Throws: `ValidationError` for one that is not curl's syntax, or that reads standard
    ///   input (`@-`, `<-`): a part's file is opened again for each retry and after a restart,
    ///   which a pipe cannot be.
    func formArguments() throws -> [CurlFormArgument] {
        let given = (form.map { ($0, true) } + formString.map { ($0, false) }).sorted { $0.0.position < $1.0.position }
        return try given.map { argument, isCurlSyntax in
            let parsed: CurlFormArgument
            do {
                parsed = isCurlSyntax ? try CurlFormArgument.parse(argument.text) : try CurlFormArgument.literal(argument.text)
            } catch {
                guard isCurlSyntax else { throw ValidationError("--form-string '\(argument.text)': expected NAME=VALUE") }
                throw ValidationError("\(error)")
            }
            switch parsed.value {
            case .file(path: "-"):
                throw ValidationError("-F '\(argument.text)': ferry does not read a file part from standard input: it opens a part's "
                    + "file again to retry or resume the upload. Save it to a file first (… > data.bin; -F \(parsed.name)=@data.bin)")
            case .textFromFile(path: "-"):
                throw ValidationError("-F '\(argument.text)': ferry does not read a value from standard input; give the text "
                    + "(-F '\(parsed.name)=TEXT') or a file holding it (-F \(parsed.name)=<FILE)")
            default:
                return parsed
            }
        }
    }

    /// The request headers: the `-H` arguments in order (a `-H @FILE` gives the file's lines),
    /// then the `Authorization` of `-u` or `--oauth2-bearer` unless a `-H` sets one (as in curl,
    /// the custom header replaces it).
    ///
    /// - Throws: `ValidationError` for a header that is not `Name: value` or that Ferry cannot send
    ///   (a line break or NUL in it, a name that is not a token, a header Ferry sets itself), a
    ///   header file that cannot be read or holds such a line, a `-u` without a password, or both
    ///   `-u` and `--oauth2-bearer`.
    func headerFields() throws -> [HeaderField] {
        var headers: [HeaderField] = []
        for argument in header {
            if argument.hasPrefix("@") {
                do {
                    headers += try HeaderFile.read(String(argument.dropFirst()))
                } catch {
                    throw ValidationError(error.description)
                }
            } else if let header = HeaderField.parse(argument) {
                headers.append(header)
            } else {
                throw ValidationError("-H '\(argument)': expected 'Name: value'")
            }
        }
        for field in headers {
            do {
                try RequestHeaders.check(field)
            } catch {
                throw ValidationError("-H '\(field.name): \(field.value)': \(error.description)")
            }
        }
        if let authorization = try authorizationHeader(),
           !headers.contains(where: { $0.name.lowercased() == AuthorizationHeader.name.lowercased() }) {
            headers.append(authorization)
        }
        return headers
    }

    /// The `Authorization` header `-u` or `--oauth2-bearer` asks for, if either was given.
    private func authorizationHeader() throws -> HeaderField? {
        switch (user, oauth2Bearer) {
        case (nil, nil):
            return nil
        case let (user?, nil):
            guard let header = AuthorizationHeader.basic(user) else {
                throw ValidationError("-u \(user): give user:password (Ferry does not prompt for the password)")
            }
            return header
        case let (nil, token?):
            return AuthorizationHeader.bearer(token)
        case (.some, .some):
            throw ValidationError("-u and --oauth2-bearer both set the Authorization header: give one")
        }
    }

    mutating func validate() throws {
        try applyProfile()
        guard !field.isEmpty else { throw ValidationError("--field: the field name is empty") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1, got \(concurrency)") }
        guard retry >= 0 else { throw ValidationError("--retry must be 0 or more, got \(retry)") }
        _ = try formArguments()
        _ = try headerFields()
    }
}
