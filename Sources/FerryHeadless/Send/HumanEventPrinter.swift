import FileSystem
import Multipart
import TextFormat
import JSON
import UploadModel

/// `ferry send`'s human output: a line per finished, failed or retried job; on a terminal also a
/// live line per active job, redrawn in place below them, and a summary at the end. An endpoint
/// that refuses the credentials gets one line, in place of a line per job it fails; one that asks
/// for a pause (`Retry-After`) a line when it begins and one when it ends.
///
/// Unchecked `Sendable`: every call **must** come from one serial queue (`ferry.send.events`, the
/// manager's subscription queue), which is what guards the mutable state.
public final class HumanEventPrinter: @unchecked Sendable {
    private let output: any TextOutput
    private let diagnostics: any TextOutput
    private let isTerminal: Bool
    private var active: [UploadJobID: UploadJob] = [:]
    private var liveLineCount = 0
    private let responseField: JSONPointer?
    private var links: [String] = []
    /// The endpoints whose refusal of the credentials was said: their jobs' failures are not.
    private var refusedEndpoints: Set<UploadEndpoint> = []

    /// Creates a printer.
    ///
    /// - Parameters:
    ///   - output: Where lines go.
    ///   - isTerminal: Whether `output` is a terminal (live lines are drawn only then).
    ///   - diagnostics: Where a journal failure is reported (standard error).
    ///   - responseField: Where a JSON answer holds the link to what was uploaded
    ///     (``ResponseLink``); nil for its usual keys.
    public init(output: any TextOutput, isTerminal: Bool, diagnostics: any TextOutput = StandardStream.error,
                responseField: JSONPointer? = nil) {
        self.output = output
        self.responseField = responseField
        self.isTerminal = isTerminal
        self.diagnostics = diagnostics
    }

    /// Prints what an event changes.
    ///
    /// - Throws: ``StandardStreamError`` when `output` cannot be written.
    public func handle(_ event: UploadEvent) throws(StandardStreamError) {
        try handle([event])
    }

    /// Prints what a batch of events changes, in one write (a busy queue's lines go out together).
    ///
    /// - Throws: ``StandardStreamError`` when `output` cannot be written.
    public func handle(_ batch: [UploadEvent]) throws(StandardStreamError) {
        var lines: [String] = []
        for event in batch { collect(event, into: &lines) }
        try redraw(adding: lines)
    }

    private func collect(_ event: UploadEvent, into lines: inout [String]) {
        switch event {
        case let .started(job), let .progressed(job):
            active[job.id] = job
        case let .retrying(job, after):
            active[job.id] = nil
            if case let .transferFailed(reason: .unansweredAfterSending(reason))? = job.lastError {
                // Waiting for the server's word on Idempotency-Key (UploadQueueStateMachine+IdempotencyKeys).
                lines.append("wait    \(name(job)): no answer after the whole file was sent (\(reason.description)); "
                    + "in \(HumanFormat.elapsed(after)) it goes again if the server honours its Idempotency-Key, else it may have arrived")
            } else {
                lines.append("retry   \(name(job)) in \(HumanFormat.elapsed(after)): \(job.lastError?.description ?? "")")
            }
        case let .succeeded(job):
            active[job.id] = nil
            let status = job.response.map { $0.answerWasLost == true ? "  (the server holds it; its answer was lost)" : "  HTTP \($0.status)" } ?? ""
            lines.append("done    \(name(job))  \(HumanFormat.bytes(job.spec.estimatedBytes))\(status)")
            if let link = job.response.flatMap({ ResponseLink.find(in: $0, at: responseField) }) { links.append(link) }
        case let .failed(job, reason):
            active[job.id] = nil
            if !isCredentialRefusal(reason, job) { lines.append("failed  \(name(job)): \(text(of: reason, for: job))") }
        case let .cancelled(job):
            active[job.id] = nil
            lines.append("cancel  \(name(job))")
        case let .journalFailed(error):
            diagnostics.writeLineIgnoringFailure("ferry: \(error)")
        case let .endpointPaused(endpoint, pause):
            if let words = pause.credentialsText(for: endpoint), refusedEndpoints.insert(endpoint).inserted {
                let change = pause.credentialsSent ? "change them" : "give them"
                lines.append("refused \(words): none of its uploads is sent; \(change) (-H, -u, --oauth2-bearer) and send again")
            } else if pause.refusedCredentials == nil, let wait = pause.wait {
                lines.append("paused  \(endpoint) for \(HumanFormat.elapsed(wait.delay)): it answered \(wait.status) with Retry-After")
            }
        case let .endpointResumed(endpoint):
            lines.append("resumed \(endpoint)")
        case .queued, .removed, .pausedChanged, .idle:
            break
        }
    }

    /// The line for a failed job `ferry send --resume` leaves in the journal: its ID (for `ferry
    /// jobs retry ID`), its name and why it waits for the user.
    ///
    /// - Parameter job: The job.
    /// - Returns: The line.
    public static func leftLine(_ job: UploadJob) -> String {
        let why = job.mayHaveArrived ? "may have arrived" : job.lastError?.description ?? "failed in an earlier run"
        return "left    #\(job.id) \(name(job)): \(why)"
    }

    /// Clears the live lines and prints the summary, then the links the succeeded jobs' answers
    /// gave, one a line in the order the jobs finished (so the last line of one upload is its link).
    /// A run that ended early (`interrupted`) says so and how many jobs it left for `--resume`.
    ///
    /// - Throws: ``StandardStreamError`` when `output` cannot be written.
    public func finish(_ summary: UploadSummary, seconds: Double, interrupted: Bool = false) throws(StandardStreamError) {
        active = [:]
        // Under a second the rate says more about start-up than about the transfer: left out.
        let rate = seconds >= 1 ? " (\(HumanFormat.rate(bytesPerSecond: Double(summary.bytesSent) / seconds)))" : ""
        let left = summary.queued + summary.uploading
        let ending = interrupted ? "; interrupted, \(left) left for --resume" : ""
        try redraw(adding: [
            "\(summary.succeeded) succeeded, \(summary.failed) failed, \(summary.cancelled) cancelled; "
                + "\(HumanFormat.bytes(summary.bytesSent)) in \(HumanFormat.elapsed(.seconds(seconds)))\(rate)\(ending)",
        ] + links)
    }

    private func redraw(adding lines: [String]) throws(StandardStreamError) {
        var text = ""
        if isTerminal, liveLineCount > 0 {
            text += "\u{1B}[\(liveLineCount)A\u{1B}[J"
        }
        for line in lines { text += line + "\n" }
        liveLineCount = 0
        if isTerminal {
            for job in active.values.sorted(by: { $0.id < $1.id }) {
                text += liveLine(job) + "\n"
                liveLineCount += 1
            }
        }
        if !text.isEmpty { try output.write(text) }
    }

    private func liveLine(_ job: UploadJob) -> String {
        let progress = job.progress
        let percent = progress.fractionCompleted.map(HumanFormat.percent) ?? "--"
        let rate = progress.bytesPerSecond.map { HumanFormat.rate(bytesPerSecond: $0) } ?? ""
        let eta = progress.estimatedTimeRemaining.map { "ETA " + HumanFormat.duration($0) } ?? ""
        let total = progress.totalBytes.map(HumanFormat.bytes) ?? "?"
        // Progress counts what the server acknowledged: at 100 % it holds the whole body.
        let after = (progress.fractionCompleted ?? 0) >= 1 ? "waiting for the answer" : "\(rate)  \(eta)"
        return "  ↑ \(name(job))  \(HumanFormat.bytes(progress.bytesSent))/\(total)  \(percent)  \(after)"
    }

    /// Whether a job failed because its endpoint refused the credentials, as already said.
    private func isCredentialRefusal(_ reason: UploadError, _ job: UploadJob) -> Bool {
        switch reason {
        case .credentialsRefused: return true
        case .serverRejected(401, _, _), .serverRejected(403, _, _):
            return UploadEndpoint(url: job.spec.url).map(refusedEndpoints.contains) ?? false
        default: return false
        }
    }

    /// What went wrong, without the path when the line already names the job's only file.
    private func text(of reason: UploadError, for job: UploadJob) -> String {
        let description = reason.description
        guard job.spec.files.count == 1, let path = reason.path, path == job.spec.files[0].path else { return description }
        let prefix = FileSystemName.escaped(path) + ": "
        return description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : description
    }

    private func name(_ job: UploadJob) -> String {
        Self.name(job)
    }

    private static func name(_ job: UploadJob) -> String {
        let paths = job.spec.namingPaths
        guard let first = paths.first else { return "#\(job.id)" }
        // As a screen shows it: bytes that are not UTF-8 as \xNN, control characters escaped.
        let base = DisplayWidth.displayable(bytes: FileSystemName.bytes(of: PathName.lastComponent(of: first)))
        return paths.count > 1 ? "\(base) (+\(paths.count - 1) more)" : base
    }
}
