import ArgumentParser
import Dispatch
import FileSystem
import FoundationEssentials
import Multipart
import Receiver
import Glibc
import TextFormat

/// `ferry serve`: a small receiving server for trying Ferry (or any multipart or tus client) out.
///
/// Standard output carries the upload URL (`http://HOST:PORT/upload`) as its first line, then one
/// JSON line per request; diagnostics go to standard error. Ctrl-C or SIGTERM stops it cleanly.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Receive multipart/form-data and tus resumable uploads and save them in a directory.",
        discussion: """
            Send with POST to /upload (or /upload/..., /multiupload), for example \
            `curl -F file=@photo.jpg http://127.0.0.1:3000/upload`. The answer is JSON with the \
            fields and files received; GET /uploads lists everything received so far. The first \
            line of standard output is the upload URL; then one JSON line per request.

            Resumable uploads speak tus 1.0.0 at /files/ (creation, creation-with-upload, \
            termination, expiration, checksum with sha1 or sha256; Tus-Max-Size is --max-body). \
            Unfinished uploads wait in DIR/.ferry-tus (kept across restarts) and are removed \
            --tus-expire after their last PATCH; a finished one is saved in DIR under its \
            'filename' metadata like a form's file and listed by GET /uploads.

            Loopback needs no token. Any other --host (0.0.0.0, ::, a LAN address) needs a token \
            (--token, --token-file or FERRY_SERVE_TOKEN), which every request must carry as \
            'Authorization: Bearer TOKEN' or as the password of Basic (401 otherwise), or --no-auth.

            Slow clients are cut as nginx cuts them: a request head must arrive within \
            --header-timeout (408), body bytes must keep coming (--body-timeout, --min-body-rate; \
            408), an answer must be read (--send-timeout), an idle kept-alive connection closes \
            after --keepalive-timeout. The soft file-descriptor limit is raised to the hard one at \
            start; past --max-connections new connections wait; past --max-uploads files being written, uploads get \
            503 with Retry-After. A full disk or quota answers 507 and keeps nothing of the upload.
            """,
        version: FerryVersion.current
    )

    @Option(help: "Address to listen on (loopback unless you say otherwise; any other needs a token or --no-auth).")
    var host = "127.0.0.1"

    @Option(help: "Secret every request must carry (Bearer, or Basic password); visible in ps, so prefer --token-file or FERRY_SERVE_TOKEN.")
    var token: String?

    @Option(help: "File whose first line is the token.")
    var tokenFile: String?

    @Flag(help: "Listen off loopback without a token: anyone who can reach it may upload and list (a warning is printed).")
    var noAuth = false

    @Option(help: "How long an unfinished tus upload is kept after its last PATCH, e.g. 30s, 10m, 24h. Default 24h.", transform: Serve.tusExpiry)
    var tusExpire = ReceiverConfiguration.defaultTusExpiration

    @Option(
        help: "Read request bodies at most this fast, bytes a second (e.g. 512K, 20M): to watch or interrupt an upload half-way. Default: no limit.",
        transform: PositiveByteCount.transform("--throttle", "a positive byte count a second such as 512K or 20M"))
    var throttle: Int64?

    @Option(help: "Seconds a request head may take (408 after). Default 20.", transform: Serve.seconds)
    var headerTimeout = ReceiverTimeouts.standard.header

    @Option(help: "Seconds to wait for the next body bytes (408 after). Default 60.", transform: Serve.seconds)
    var bodyTimeout = ReceiverTimeouts.standard.body

    @Option(help: "Slowest body accepted, bytes a second over each 10 s of waiting (408 below; 0: off).")
    var minBodyRate = ReceiverTimeouts.standard.minimumBodyRate

    @Option(help: "Seconds an answer may wait for the client to read it (closed after). Default 60.", transform: Serve.seconds)
    var sendTimeout = ReceiverTimeouts.standard.send

    @Option(help: "Seconds a kept-alive connection may stay idle. Default 75.", transform: Serve.seconds)
    var keepaliveTimeout = ReceiverTimeouts.standard.keepAliveIdle

    @Option(help: "Most connections at once; more wait. Default: 3/4 of ulimit -n less 64, at most 10000.")
    var maxConnections: Int?

    @Option(help: "Most upload files being written at once (a part or a tus upload); more get 503 with Retry-After. Default: 1/4 of ulimit -n less 64, at most 1000.")
    var maxUploads: Int?

    @Option(help: "Port to listen on; 0 picks a free one (see the first output line).")
    var port = 3000

    @Option(help: "Directory the uploads are saved in (created if missing).")
    var dir = "./uploads"

    @Option(
        help: "Largest request body accepted, e.g. 500M or 10GiB (413 above it). Default 10GiB.",
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

    @Flag(name: .customLong("resumable"), inversion: .prefixedNo, help: """
        Offer resumable uploads on /upload (the IETF draft Apple's URLSession and ferry send speak; on by default). \
        --no-resumable behind a proxy that takes the draft's 104 for the answer, as nginx does.
        """)
    var resumable = true

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
        if token != nil && tokenFile != nil {
            throw ValidationError("Give the token once: --token or --token-file, not both.")
        }
        let configuration = try makeConfiguration()
        if noAuth, case .token = configuration.access {
            throw ValidationError("--no-auth contradicts the token given (--token, --token-file or FERRY_SERVE_TOKEN); drop one.")
        }
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The name of the environment variable a token may come from.
    static let tokenVariable = "FERRY_SERVE_TOKEN"

    /// Parses a timeout: seconds (`20`, `0.5`) or a duration with a unit (`500ms`, `30s`, `2m`).
    static func seconds(_ text: String) throws -> Duration {
        guard let duration = DurationText.parse(text), duration > .zero, duration <= .seconds(86_400) else {
            throw ValidationError("a timeout must be a number of seconds (or 500ms, 30s, 2m) above 0 and at most 86400 s, got '\(text)'.")
        }
        return duration
    }

    /// Parses `--tus-expire`: `30s`, `10m`, `24h`, `7d`, or seconds.
    static func tusExpiry(_ text: String) throws -> Duration {
        guard let duration = DurationText.parse(text), duration >= .seconds(1) else {
            throw ValidationError("--tus-expire must be a duration of at least 1 s such as 30s, 10m, 24h or 7d, got '\(text)'.")
        }
        return duration
    }

    /// The token from --token, else --token-file (its first line), else the environment.
    private func resolvedToken() throws -> String? {
        if let token { return token }
        if let tokenFile {
            guard let data = FileManager.default.contents(atPath: tokenFile) else {
                throw ValidationError("--token-file \(tokenFile) cannot be read.")
            }
            let text = String(decoding: data, as: UTF8.self)
            return text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map {
                String($0.hasSuffix("\r") ? $0.dropLast() : $0)
            } ?? ""
        }
        return ProcessInfo.processInfo.environment[Self.tokenVariable]
    }

    func run() async throws {
        // A reader that closes the output pipe must not kill the server: writes just fail then.
        signal(SIGPIPE, SIG_IGN)
        DescriptorLimit.raiseToHard()
        var configuration = try makeConfiguration()
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
        if configuration.isOpenToNetwork {
            LineWriter.standardError.writeLine(
                "ferry serve: WARNING: --no-auth: anyone who can reach \(server.baseURL) may upload files and list every upload received.")
        }
        LineWriter.standardError.writeLine(
            "ferry serve: saving uploads in \(FileSystemName.escaped(server.directory)); send to \(server.baseURL)/upload, or with tus to \(server.baseURL)/files/ (Ctrl-C stops).")
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

    private func makeConfiguration() throws -> ReceiverConfiguration {
        ReceiverConfiguration(
            host: host,
            port: port,
            directory: dir,
            limits: ReceiverLimits(maxBodySize: maxBody, maxParts: maxParts),
            access: try resolvedToken().map { .token($0) } ?? .open,
            allowsUnauthenticatedNetworkAccess: noAuth,
            timeouts: ReceiverTimeouts(
                header: headerTimeout, body: bodyTimeout, minimumBodyRate: minBodyRate, send: sendTimeout,
                keepAliveIdle: keepaliveTimeout),
            capacity: ReceiverCapacity(maxConnections: maxConnections, maxUploads: maxUploads),
            faults: FaultPlan(
                failFirst: failFirst,
                failRate: failRate,
                status: status,
                delayMilliseconds: delay,
                dropRate: dropRate,
                stall: stall,
                seed: seed
            ),
            tusExpiration: tusExpire,
            offersResumableUploads: resumable,
            throttle: throttle,
            logLevel: .init(rawValue: logLevel) ?? .error
        )
    }
}
