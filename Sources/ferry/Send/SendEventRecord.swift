import FileSystem
import FoundationEssentials
import Glibc
import Multipart
import TerminalUI
import TextFormat
import JSON
import UploadModel

/// One line of `ferry send --json`: an event with the job's id, path, bytes, status and error
/// where they apply; an endpoint's pause (`endpointPaused`: `endpoint`, `reason` — `credentials`
/// or `retryAfter` —, `status`, `retryIn`) and its end (`endpointResumed`).
///
/// A path whose bytes are valid UTF-8 is written as it is (JSON escapes what needs escaping);
/// one that is not is written in its displayable form (`caf\xE9.txt`), with `pathBytesHex`
/// holding the real bytes so a script can find the file.
struct SendEventRecord {
    var event: String
    var endpoint: String?
    var reason: String?
    var id: Int64?
    var path: String?
    var pathBytesHex: String?
    var files: [String]?
    var bytes: Int64?
    var total: Int64?
    var rate: Double?
    var attempt: Int?
    var status: Int?
    var error: String?
    var retryIn: Double?
    var response: String?
    var succeeded: Int?
    var failed: Int?
    var cancelled: Int?
    /// A tus job's upload URL, once created.
    var uploadURL: String?
    /// A tus job's offset the server last confirmed.
    var uploadOffset: Int64?
    /// A tus job's notes (created, resumed at, restarted), oldest first.
    var tusNotes: [String]?
    /// The link a succeeded job's JSON answer gives (``ResponseLink``).
    var link: String?
    /// The offsets a resumable request (`--resumable`) went on from after lost connections.
    var resumedAt: [Int64]?
    /// A succeeded job whose answer was lost, though the server said it holds the whole upload: true.
    var answerLost: Bool?
    /// The summary of a run that ended early (a signal, the journal, standard output): true.
    var interrupted: Bool?
    /// The summary of a run that ended early: the jobs left unfinished for `--resume`.
    var queued: Int?

    /// The record for an event; nil for events scripts do not see (removal, pausing; journal
    /// notices go to standard error).
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - responseField: Where a succeeded job's answer holds its link (`--response-field`); nil
    ///     for ``ResponseLink/keys``.
    init?(_ event: UploadEvent, responseField: JSONPointer? = nil) {
        switch event {
        case let .queued(job): self.init(name: "queued", job: job)
        case let .started(job): self.init(name: "started", job: job)
        case let .progressed(job): self.init(name: "progress", job: job)
        case let .retrying(job, after):
            self.init(name: "retrying", job: job)
            retryIn = Self.seconds(after)
        case let .succeeded(job):
            self.init(name: "succeeded", job: job)
            response = job.response?.bodyText
            link = job.response.flatMap { ResponseLink.find(in: $0, at: responseField) }
        case let .failed(job, reason):
            self.init(name: "failed", job: job)
            error = reason.description
            response = job.response.map(\.bodyText)
        case let .cancelled(job): self.init(name: "cancelled", job: job)
        case let .endpointPaused(endpoint, pause):
            self.init(event: "endpointPaused", endpoint: endpoint)
            if let wait = pause.wait {
                reason = "retryAfter"
                status = wait.status
                retryIn = Self.seconds(wait.delay)
            }
            if let refused = pause.refusedCredentials {
                reason = "credentials"
                status = refused
            }
        case let .endpointResumed(endpoint): self.init(event: "endpointResumed", endpoint: endpoint)
        case .idle, .removed, .pausedChanged, .journalFailed: return nil
        }
    }

    /// The closing `summary` record; one of a run that ended early says so (`interrupted`) and
    /// how many jobs it left unfinished (`queued`).
    init(summary: UploadSummary, interrupted: Bool = false) {
        event = "summary"
        succeeded = summary.succeeded
        failed = summary.failed
        cancelled = summary.cancelled
        bytes = summary.bytesSent
        total = summary.totalBytes
        if interrupted {
            self.interrupted = true
            queued = summary.queued + summary.uploading
        }
    }

    private init(event: String, endpoint: UploadEndpoint) {
        self.event = event
        self.endpoint = endpoint.description
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private init(name: String, job: UploadJob) {
        event = name
        id = job.id.rawValue
        if let first = job.spec.files.first?.path ?? job.spec.extraFileParts.first?.path {
            path = Self.shown(first)
            if FileSystemName.isUndecodable(first) {
                pathBytesHex = FileSystemName.bytes(of: first).lowercaseHex
            }
        }
        files = job.spec.files.count > 1 ? job.spec.files.map { Self.shown($0.path) } : nil
        bytes = job.progress.bytesSent
        total = job.progress.totalBytes
        rate = job.progress.bytesPerSecond
        attempt = job.attempts
        status = job.response?.status
        resumedAt = job.response?.resumedAt
        answerLost = job.response?.answerWasLost
        error = job.lastError?.description
        if let tus = job.tus {
            uploadURL = tus.uploadURL
            uploadOffset = tus.offset
            tusNotes = tus.notes.map(\.description)
        }
    }

    /// A path as written in a record: its bytes as text when they are UTF-8, else its
    /// displayable form.
    private static func shown(_ path: String) -> String {
        guard FileSystemName.mayHoldMappedBytes(path) else { return path }
        let bytes = FileSystemName.bytes(of: path)
        return String(validating: bytes, as: UTF8.self) ?? DisplayWidth.displayable(bytes: bytes)
    }

    /// The record of a failed job `--resume` leaves in the journal (event `left`).
    init(left job: UploadJob) {
        self.init(name: "left", job: job)
    }

    /// The record as one line of JSON, its members in alphabetical order.
    func jsonLine() -> String {
        var line = CompactJSONObject()
        line.add("answerLost", json: answerLost.map { $0 ? "true" : "false" })
        line.add("attempt", attempt)
        line.add("bytes", bytes)
        line.add("cancelled", cancelled)
        line.add("endpoint", endpoint)
        line.add("error", error)
        line.add("event", event)
        line.add("failed", failed)
        line.add("files", files)
        line.add("id", id)
        line.add("interrupted", json: interrupted.map { $0 ? "true" : "false" })
        line.add("link", link)
        line.add("path", path)
        line.add("pathBytesHex", pathBytesHex)
        line.add("queued", queued)
        line.add("rate", rate)
        line.add("reason", reason)
        line.add("response", response)
        line.add("resumedAt", json: resumedAt.map { "[" + $0.map(String.init).joined(separator: ",") + "]" })
        line.add("retryIn", retryIn)
        line.add("status", status)
        line.add("succeeded", succeeded)
        line.add("total", total)
        line.add("tusNotes", tusNotes)
        line.add("uploadOffset", uploadOffset)
        line.add("uploadURL", uploadURL)
        return line.finished
    }
}
