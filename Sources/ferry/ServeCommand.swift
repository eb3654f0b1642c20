import ArgumentParser
import Dispatch
import Multipart
import Receiver

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `ferry serve`: a small receiving server for trying Ferry (or any multipart client) out.
///
/// Standard output carries the upload URL (`http://HOST:PORT/upload`) as its first line, then one
/// JSON line per request; diagnostics go to standard error. Ctrl-C or SIGTERM stops it cleanly.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Receive multipart/form-data uploads and save them in a directory.",
        discussion: """
            Send with POST to /upload (or /upload/..., /multiupload), for example \
            `curl -F file=@photo.jpg http://127.0.0.1:3000/upload`. The answer is JSON with the \
            fields and files received; GET /uploads lists everything received so far. The first \
            line of standard output is the upload URL; then one JSON line per request.
            """,
        version: FerryVersion.current
    )

    @Option(help: "Address to listen on (loopback unless you say otherwise).")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (see the first output line).")
    var port = 3000

    @Option(help: "Directory the uploads are saved in (created if missing).")
    var dir = "./uploads"

    @Option(
        help: "Largest request body accepted, e.g. 500M or 10GiB (413 above it).",
        transform: { text in
            guard let bytes = ByteCount.parse(text) else {
                throw ValidationError("--max-body must be a byte count such as 1048576, 500M or 10GiB, got '\(text)'.")
            }
            return bytes
        })
    var maxBody: Int64 = ReceiverLimits.defaultMaxBodySize

    @Option(help: "Most parts (files and fields) accepted in one request (413 above it).")
    var maxParts = ReceiverLimits.defaultMaxParts

    @Option(help: "Answer 500 to the first N attempts of each filename (counted across requests).")
    var failFirst = 0

    @Option(help: "Probability (0 to 1) of answering an upload with 500.")
    var failRate = 0.0

    @Option(help: "Answer every upload with this HTTP status.")
    var status: Int?

    @Option(help: "Milliseconds to wait before answering an upload.")
    var delay = 0

    @Option(help: "Probability (0 to 1) of closing the connection part-way through the body.")
    var dropRate = 0.0

    @Flag(help: "Read nothing and answer nothing; keep upload connections open.")
    var stall = false

    @Option(help: "Seed for --fail-rate and --drop-rate, for reproducible runs.")
    var seed: UInt64?

    @Option(help: "Level of diagnostics on standard error (trace, debug, info, notice, warning, error, critical).")
    var logLevel = "error"

    mutating func validate() throws {
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        do {
            try makeConfiguration().validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        // A reader that closes the output pipe must not kill the server: writes just fail then.
        signal(SIGPIPE, SIG_IGN)
        var configuration = makeConfiguration()
        let output = LineWriter.standardOutput
        configuration.onListening = { url in output.writeLine(url + "/upload") }
        configuration.onRequestLogged = { entry in output.writeLine(entry) }

        let server: ReceiverServer
        do {
            server = try await ReceiverServer.start(configuration)
        } catch {
            let errorOutput = LineWriter.standardError
            errorOutput.writeLine("ferry serve: \(error.description)")
            errorOutput.flush()
            throw ExitCode.failure
        }
        LineWriter.standardError.writeLine(
            "ferry serve: saving uploads in \(FileSystemName.escaped(server.directory)); send to \(server.baseURL)/upload (Ctrl-C stops).")
        // (The upload URL is also the first line of standard output, written by `onListening`.)

        let signalQueue = DispatchQueue(label: "ferry.receiver.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
            source.setEventHandler {
                Task { await server.shutdown() }
            }
            source.resume()
            sources.append(source)
        }
        try await server.waitUntilStopped()
        sources.forEach { $0.cancel() }
        output.flush()
        LineWriter.standardError.flush()
    }

    private func makeConfiguration() -> ReceiverConfiguration {
        ReceiverConfiguration(
            host: host,
            port: port,
            directory: dir,
            limits: ReceiverLimits(maxBodySize: maxBody, maxParts: maxParts),
            faults: FaultPlan(
                failFirst: failFirst,
                failRate: failRate,
                status: status,
                delayMilliseconds: delay,
                dropRate: dropRate,
                stall: stall,
                seed: seed
            ),
            logLevel: .init(rawValue: logLevel) ?? .error
        )
    }
}
