import ArgumentParser
import FerryConfig
import FerryHeadless
import FoundationEssentials
import Glibc
import HTTPUploadTransport
import Multipart
import JSON
import UploadModel
import UploadProtocols

/// `ferry send`: the upload engine without the interface, with curl-like options.
struct Send: AsyncParsableCommand {
    /// `ferry` as the super-command: `Ferry.main` parses `send … FILE…` with `Send` as the root,
    /// and a root with a super-command is spared the parser's two trial parses for
    /// `--generate-completion-script` (left to the whole tree, as everything but a parsed send).
    static let configuration = CommandConfiguration(
        commandName: "send",
        _superCommandName: "ferry",
        abstract: "Upload files without the interface (curl-like options, JSON Lines events).",
        discussion: """
            Each FILE is one upload carrying every -F parameter, or all files go in one request \
            with --bundle. --dry-run writes the exact HTTP/1.1 requests to standard output and \
            touches no network. Exit status: 0 when every upload succeeded, 1 when any failed \
            (or any file was bad), 2 on a usage error.
            """,
        version: FerryVersion.current
    )

    @OptionGroup var formOptions: FormOptions

    @Option(name: .customShort("X"), help: "The HTTP method (default: POST).")
    var methodOption: String?

    @Option(name: .customLong("timeout"), help: "Seconds without progress before an upload is abandoned (idle timeout; default: 30).")
    var timeoutOption: Double?

    @Option(name: .customLong("retry-delay"), help: """
        Seconds to wait before each automatic retry, as curl's --retry-delay, instead of the doubling backoff \
        (about 1 s, 2 s, 4 s … up to 60 s); a server's Retry-After still wins.
        """)
    var retryDelay: Double?

    @Flag(name: .customLong("bundle"), inversion: .prefixedNo,
          help: "Send all files in one request, one part per file under --field (--no-bundle: one each, whatever a profile says).")
    var bundleChoice: Bool?

    @Flag(name: [.customShort("r"), .long], help: ArgumentHelp(
        "Send every file under a FILE that is a folder, each part's filename its path from the folder's parent "
            + "(photos/2024/a.jpg for photos), as a browser's folder pick does. Links to files are followed, links to "
            + "folders are not (no cycles); hidden files and folders are skipped unless --hidden. Without -r a folder is an error."))
    var recursive = false

    @Flag(name: .long, help: "With -r, also send hidden files and folders (names starting with '.').")
    var hidden = false

    @Flag(name: .long, help: "Write events as JSON Lines on standard output.")
    var json = false

    @Flag(name: .long, help: "Also send the unfinished and failed jobs of earlier runs.")
    var resume = false

    @Flag(name: .long, help: "Write the HTTP requests to standard output instead of sending them.")
    var dryRun = false

    @Flag(name: .long, help: "Write, for each request, a curl command line that sends the same parts and headers, instead of sending.")
    var printCurl = false

    @Flag(name: .long, help: "With --print-curl, write secret header values and a URL's password as they are (masked by default).")
    var showSecrets = false

    @Flag(name: .customLong("tus"), inversion: .prefixedNo, help: ArgumentHelp(
        "Upload each FILE with tus 1.0 (resumable): --url is the creation URL, -F text parameters become metadata "
            + "(--no-tus: multipart, whatever a profile says)."))
    var tusChoice: Bool?

    @Option(
        name: .long,
        help: "With --tus, the bytes each request carries (e.g. 512K, 8M). Default: 4M at first, then about a second of what the link moves (at most 1G).",
        transform: PositiveByteCount.transform("--chunk-size", "a positive byte count such as 512K or 8M"))
    var chunkSize: Int64?

    @Option(name: .customLong("presigned-post"), help: ArgumentHelp(
        "Post each FILE to S3 (or a store like it) with a presigned POST: the JSON boto3's generate_presigned_post makes "
            + "({\"url\": ..., \"fields\": {...}}), read from FILE.json or - (standard input). Its fields go first, as they are, "
            + "the file last under 'file'.",
        valueName: "FILE.json"))
    var presignedPost: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where a JSON answer holds the link to the upload, as a JSON pointer (/data/url); by default its top-level "
                + "url, link or location. Shown in the succeeded event (link) and on the last line.",
            valueName: "pointer"),
        transform: { text in
            guard let pointer = JSONPointer(text) else {
                throw ValidationError("--response-field '\(text)' is not a JSON pointer such as /data/url")
            }
            return pointer
        })
    var responseField: JSONPointer?

    @Flag(name: .long, help: "With --tus, send no Upload-Checksum even where the server offers checksums (less CPU on both sides; TCP, and TLS over https, still check the bytes).")
    var noChecksum = false

    @Flag(name: .long, help: "With --tus, send the first chunk inside the creation POST where the server offers creation-with-upload (off by default, as tus-js-client and tuspy: some servers never call their completion hook for an upload finished in its POST).")
    var tusCreationWithUpload = false

    @Argument(help: ArgumentHelp(
        "Files to upload, one request each unless --bundle. An argument starting with http:// or https:// is the URL, "
            + "as curl takes it (ferry send -F file=@a.jpg https://example.com/upload); a file of such a name is ./NAME."))
    var files: [String] = []

    /// The HTTP method.
    var method: String { methodOption ?? "POST" }
    /// Whether all files go in one request (`--bundle`, else the profile's `bundle`).
    var bundle: Bool { bundleChoice ?? false }
    /// Whether each file goes by tus (`--tus`, else the profile's protocol).
    var tus: Bool { tusChoice ?? false }
    /// Seconds without progress before an upload is abandoned.
    var timeout: Double { timeoutOption ?? 30 }

    mutating func validate() throws {
        if let chosen = try formOptions.chosenProfile() {
            methodOption = methodOption ?? chosen.method
            timeoutOption = timeoutOption ?? chosen.timeout
            bundleChoice = bundleChoice ?? chosen.bundle
            tusChoice = tusChoice ?? chosen.usesTus
        }
        let onlyResuming = resume && files.isEmpty && !formOptions.hasFormParts
        guard !files.isEmpty || formOptions.hasFormParts || resume else {
            throw ValidationError("nothing to send: give FILEs or -F parts (or --resume)")
        }
        if let url = formOptions.url {
            do {
                _ = try UploadTarget(url)
            } catch {
                throw ValidationError(error.description)
            }
        } else if !onlyResuming && presignedPost == nil {
            throw ValidationError("--url is required")
        }
        guard HTTPToken.isToken(method) else {
            throw ValidationError("-X '\(method)' is not an HTTP method")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        if let retryDelay, !(retryDelay >= 0 && retryDelay <= 3_600) {
            throw ValidationError("--retry-delay must be 0 to 3600 seconds, got \(retryDelay)")
        }
        guard !(dryRun && resume) else { throw ValidationError("--dry-run and --resume cannot be combined") }
        guard chunkSize == nil || tus else { throw ValidationError("--chunk-size applies to --tus uploads only") }
        guard !noChecksum || tus else { throw ValidationError("--no-checksum applies to --tus uploads only") }
        guard !tusCreationWithUpload || tus else { throw ValidationError("--tus-creation-with-upload applies to --tus uploads only") }
        guard recursive || !hidden else { throw ValidationError("--hidden applies to -r only") }
        guard !(tus && bundle) else { throw ValidationError("--tus sends each FILE as an upload of its own: drop --bundle") }
        try validatePresignedPost()
        guard !printCurl || !(dryRun || resume || tus) else {
            throw ValidationError("--print-curl writes one curl command per request: it cannot be combined with --dry-run, --resume or --tus")
        }
        guard printCurl || !showSecrets else { throw ValidationError("--show-secrets applies to --print-curl only") }
    }

    func run() async throws {
        let folders = recursive ? FolderArguments(expanding: self.files, includesHidden: hidden) : nil
        folders?.warnings.forEach { StandardStream.error.writeLineIgnoringFailure($0) }
        let files = folders?.files ?? self.files
        let partFilenames = folders?.partFilenames ?? [:]
        guard !files.isEmpty || formOptions.hasFormParts || resume else {
            throw ValidationError("nothing to send: the folders hold no files")
        }
        let source = try requestSource()
        let planner = UploadPlanner(
            url: source.url, method: method.uppercased(), headers: try formOptions.headerFields(),
            fileField: formOptions.field, formArguments: source.formArguments,
            connection: formOptions.connection.options()
        )
        var template: UploadJobSpec?
        do {
            template = files.isEmpty && !formOptions.hasFormParts ? nil : try planner.template()
        } catch {
            throw ValidationError(error.description)
        }
        if tus {
            guard template?.extraFileParts.isEmpty ?? true else {
                throw ValidationError("--tus sends -F text parameters as metadata; a file part (-F name=@file) cannot be sent")
            }
            template?.tus = TusJobOptions(chunkSize: chunkSize, sendsChecksums: !noChecksum, sendsDataInCreation: tusCreationWithUpload)
        }
        guard dryRun || printCurl else {
            var configuration = UploadQueueConfiguration(
                concurrencyLimit: formOptions.concurrency,
                idleTimeout: .milliseconds(Int64(timeout * 1000))
            )
            configuration.retryPolicy.maximumRetries = formOptions.retry
            if let retryDelay {
                configuration.retryPolicy.baseDelay = .milliseconds(Int64(retryDelay * 1000))
                configuration.retryPolicy.maximumDelay = configuration.retryPolicy.baseDelay
            }
            // Only the events are printed: finished jobs need not keep their responses.
            configuration.keepsSucceededJobDetails = false
            var transport = HTTPTransport.Configuration()
            transport.maximumConnectionsPerHost = max(transport.maximumConnectionsPerHost, formOptions.concurrency)
            let runner = SendRunner(configuration: configuration, transportConfiguration: transport, json: json, resume: resume,
                                    responseField: responseField, partFilenames: partFilenames)
            let summary = try await runner.run(files: files, bundle: bundle, template: template)
            if summary.failed > 0 || summary.cancelled > 0 { throw ExitCode.failure }
            return
        }
        let writer = DryRunWriter(output: .output)
        var anyFailed = false
        var secretsHidden = false
        defer {
            if secretsHidden {
                StandardStream.error.writeLineIgnoringFailure(
                    "ferry: secret values are written as \(CurlCommand.mask); --show-secrets writes them as they are")
            }
        }
        for job in template.map({ UploadPlanner.jobs(for: files, bundle: bundle, template: $0, partFilenames: partFilenames) }) ?? [] {
            do {
                if printCurl {
                    _ = try FormBuilder().message(for: job)  // the same checks as sending: a missing file is named
                    let command = CurlCommand(spec: job, showsSecrets: showSecrets)
                    try StandardStream.output.write(command.line + [0x0A])
                    secretsHidden = secretsHidden || command.hidesSecrets
                } else {
                    try writer.write(job)
                }
            } catch let error as StandardStreamError {
                // Nothing was sent, so nothing is lost: stop like a process the closed pipe killed.
                if case .failed = error { StandardStream.error.writeLineIgnoringFailure("ferry: \(error)") }
                throw ExitCode(error.exitStatus)
            } catch {
                anyFailed = true
                StandardStream.error.writeLineIgnoringFailure("ferry: \(error)")
            }
        }
        if anyFailed { throw ExitCode.failure }
    }
}
