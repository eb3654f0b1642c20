import ArgumentParser
import Multipart

/// The form options `ferry` and `ferry send` share: where to send and what to send with each file.
struct FormOptions: ParsableArguments {
    @Option(name: .long, help: "The URL to upload to (http:// or https://).")
    var url: String?

    @Option(name: .long, help: "The field name files are sent under.")
    var field: String = "file"

    @Option(name: .customShort("F"), help: ArgumentHelp(
        "A form part in curl's syntax: NAME=VALUE, NAME=@PATH[;type=MIME][;filename=NAME] or NAME=<PATH.",
        valueName: "part"))
    var form: [String] = []

    @Option(name: .customShort("H"), help: ArgumentHelp("A request header, 'Name: value'.", valueName: "header"))
    var header: [String] = []

    @Option(name: .long, help: "How many uploads run at once.")
    var concurrency: Int = 4

    @Option(name: .long, help: "Automatic retries of a failed upload (0 disables).")
    var retry: Int = 3

    @OptionGroup(title: "Connection")
    var connection: ConnectionArguments

    /// The `-F` arguments, parsed.
    func formArguments() throws -> [CurlFormArgument] {
        do {
            return try form.map { argument throws(CurlFormSyntaxError) in try CurlFormArgument.parse(argument) }
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The `-H` arguments, parsed.
    func headerFields() throws -> [HeaderField] {
        try header.map { line in
            guard let header = HeaderField.parse(line) else {
                throw ValidationError("-H '\(line)': expected 'Name: value'")
            }
            return header
        }
    }

    mutating func validate() throws {
        guard !field.isEmpty else { throw ValidationError("--field: the field name is empty") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard retry >= 0 else { throw ValidationError("--retry must be 0 or more") }
        _ = try formArguments()
        _ = try headerFields()
    }
}
