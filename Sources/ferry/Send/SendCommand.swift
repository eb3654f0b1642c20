import ArgumentParser
import FerryHeadless
import Foundation
import HTTPUploadTransport
import Multipart
import Receiver
import Uploading

/// `ferry send`: the upload engine without the interface, with curl-like options.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
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

    @Option(name: .customShort("X"), help: "The HTTP method.")
    var method: String = "POST"

    @Option(name: .long, help: "Seconds without progress before an upload is abandoned (idle timeout).")
    var timeout: Double = 30

    @Flag(name: .long, help: "Send all files in one request, one part per file under --field.")
    var bundle = false

    @Flag(name: .long, help: "Write events as JSON Lines on standard output.")
    var json = false

    @Flag(name: .long, help: "Also send the unfinished and failed jobs of earlier runs.")
    var resume = false

    @Flag(name: .long, help: "Write the HTTP requests to standard output instead of sending them.")
    var dryRun = false

    @Flag(name: .long, help: "Upload each FILE with tus 1.0 (resumable): --url is the creation URL, -F text parameters become metadata.")
    var tus = false

    @Option(
        name: .long,
        help: "With --tus, the most bytes one request carries (e.g. 512K, 8M). Default 4M.",
        transform: { text in
            guard let bytes = ByteCount.parse(text), bytes > 0 else {
                throw ValidationError("--chunk-size must be a positive byte count such as 512K or 8M, got '\(text)'.")
            }
            return bytes
        })
    var chunkSize: Int64?

    @Flag(name: .long, help: "With --tus, send no Upload-Checksum even where the server offers checksums (less CPU on both sides; TCP, and TLS over https, still check the bytes).")
    var noChecksum = false

    @Argument(help: "Files to upload, one request each unless --bundle.")
    var files: [String] = []

    mutating func validate() throws {
        let onlyResuming = resume && files.isEmpty && formOptions.form.isEmpty
        guard !files.isEmpty || !formOptions.form.isEmpty || resume else {
            throw ValidationError("nothing to send: give FILEs or -F parts (or --resume)")
        }
        if let url = formOptions.url {
            do {
                _ = try UploadTarget(url)
            } catch {
                throw ValidationError(error.description)
            }
        } else if !onlyResuming {
            throw ValidationError("--url is required")
        }
        guard HTTPToken.isToken(method) else {
            throw ValidationError("-X '\(method)' is not an HTTP method")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        guard !(dryRun && resume) else { throw ValidationError("--dry-run and --resume cannot be combined") }
        guard chunkSize == nil || tus else { throw ValidationError("--chunk-size applies to --tus uploads only") }
        guard !noChecksum || tus else { throw ValidationError("--no-checksum applies to --tus uploads only") }
        guard !(tus && bundle) else { throw ValidationError("--tus sends each FILE as an upload of its own: drop --bundle") }
    }

    func run() async throws {
        let planner = UploadPlanner(
            url: formOptions.url ?? "", method: method.uppercased(), headers: try formOptions.headerFields(),
            fileField: formOptions.field, formArguments: try formOptions.formArguments(),
            connection: formOptions.connection.options()
        )
        var template: UploadJobSpec?
        do {
            template = files.isEmpty && formOptions.form.isEmpty ? nil : try planner.template()
        } catch {
            throw ValidationError(error.description)
        }
        if tus {
            guard template?.extraFileParts.isEmpty ?? true else {
                throw ValidationError("--tus sends -F text parameters as metadata; a file part (-F name=@file) cannot be sent")
            }
            template?.tus = TusJobOptions(chunkSize: chunkSize ?? TusUploadPlan.defaultChunkSize, sendsChecksums: !noChecksum)
        }
        guard dryRun else {
            var configuration = UploadQueueConfiguration(
                concurrencyLimit: formOptions.concurrency,
                idleTimeout: .milliseconds(Int64(timeout * 1000))
            )
            configuration.retryPolicy.maximumRetries = formOptions.retry
            // Only the events are printed: finished jobs need not keep their responses.
            configuration.keepsSucceededJobDetails = false
            var transport = HTTPTransport.Configuration()
            transport.maximumConnectionsPerHost = max(transport.maximumConnectionsPerHost, formOptions.concurrency)
            let runner = SendRunner(configuration: configuration, transportConfiguration: transport, json: json, resume: resume)
            let summary = try await runner.run(files: files, bundle: bundle, template: template)
            if summary.failed > 0 || summary.cancelled > 0 { throw ExitCode.failure }
            return
        }
        let writer = DryRunWriter(output: .output)
        var anyFailed = false
        for job in template.map({ UploadPlanner.jobs(for: files, bundle: bundle, template: $0) }) ?? [] {
            do {
                try writer.write(job)
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
