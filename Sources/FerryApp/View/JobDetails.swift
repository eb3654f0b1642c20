import FoundationEssentials
import Multipart
import TerminalUI
import TextFormat
import UploadModel
import UploadProtocols

/// The details view of one job: files, request summary, every attempt with how it ended, the
/// last error and the response. Scrolls when it is taller than its area.
struct JobDetails: Widget {
    /// The job to describe.
    let job: UploadJob
    /// Whether the job's attempts and response are still being read (``QueueState/isLoadingDetails``).
    var isLoading = false
    /// Why the job's attempts and response could not be read (``QueueState/detailsProblem``).
    var problem: String?
    /// What differed when the job was last retried with the form as it was then
    /// (``QueueState/retriedWithForm``), if it was.
    var retriedWithForm: [String]?
    /// Wrapped lines skipped at the top; clamped so the last line can reach the bottom row.
    var scroll = 0
    /// The zone attempt times are shown in.
    var timeZone = TimeZone.current

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        let paragraph = Paragraph(lines, wrap: true)
        let limit = Self.maximumScroll(lineCount: paragraph.layoutLines(width: area.width).count, height: area.height)
        Paragraph(lines, wrap: true, scroll: min(max(0, scroll), limit)).render(in: area, buffer: &buffer)
    }

    /// The largest useful scroll for the job's details in an area.
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - isLoading: Whether its attempts and response are still being read.
    ///   - problem: Why they could not be read, if they could not.
    ///   - area: The size of the area.
    /// - Returns: How many wrapped lines can be skipped with the last one still on screen.
    static func maximumScroll(of job: UploadJob, isLoading: Bool, problem: String?, in area: Size) -> Int {
        let count = Paragraph(JobDetails(job: job, isLoading: isLoading, problem: problem).lines, wrap: true)
            .layoutLines(width: area.width).count
        return maximumScroll(lineCount: count, height: area.height)
    }

    private static func maximumScroll(lineCount: Int, height: Int) -> Int {
        max(0, lineCount - height)
    }

    private var lines: [TextLine] {
        let spec = job.spec
        var lines: [TextLine] = [
            TextLine([Span("Job \(job.id) ", style: Theme.heading),
                      Span("\(job.stateMark) \(job.state.rawValue)", style: Theme.style(for: job.state)),
                      Span(" · Esc closes, ↑↓ PgUp PgDn scroll", style: Theme.dim)]),
        ]
        for file in spec.files {
            lines.append(TextLine("File: \(file.path.displayablePath) (\(HumanFormat.bytes(file.size ?? 0)))"))
        }
        if let changes = retriedWithForm {
            lines.append(TextLine("Retried with the form as it is now (\(changes.joined(separator: ", ")) changed since it was queued)",
                                  style: Theme.heading))
        }
        let body = job.progress.totalBytes.map { " · body \(HumanFormat.bytes($0))" } ?? ""
        let proxy = spec.connection.proxyAddress(for: spec.url).map { " via proxy \($0)" } ?? ""
        if let tus = spec.tus {
            // No multipart part: the file's bytes go in PATCHes, the parameters as metadata.
            let chunks = tus.chunkSize.map { "of \(HumanFormat.bytes($0))" }
                ?? "from \(HumanFormat.bytes(TusUploadPlan.defaultChunkSize)), sized to the link"
            lines.append(TextLine("Request: tus, created at \(spec.url)\(proxy)\(body) in chunks \(chunks)"))
            for field in spec.textFields {
                lines.append(TextLine("Metadata: \(field.name)=\(field.value)", style: Theme.dim))
            }
        } else {
            lines.append(TextLine("Request: \(spec.method) \(spec.url)\(proxy)\(body)"))
            for file in spec.files {
                let name = file.path.displayableLastComponent
                lines.append(TextLine("Part: Content-Disposition: form-data; name=\"\(spec.fileField)\"; filename=\"\(name)\"",
                                      style: Theme.dim))
            }
            for field in spec.textFields {
                lines.append(TextLine("Param: \(field.name)=\(field.value)", style: Theme.dim))
            }
        }
        for header in spec.headers {
            let value = header.isSecretHeader ? FormState.secretMask : header.value
            lines.append(TextLine("Header: \(header.name): \(value)", style: Theme.dim))
        }
        if isLoading || problem != nil {
            lines.append(TextLine("Attempts: \(job.attempts)" + automaticRetriesText, style: Theme.heading))
            lines.append(problem.map { TextLine("The attempts and the response could not be read: \($0)", style: Theme.error) }
                ?? TextLine("(reading the attempts and the response…)", style: Theme.dim))
            return lines
        }
        lines += attemptLines
        if let tus = job.tus {
            let total = HumanFormat.bytes(tus.fileSize)
            lines.append(TextLine("tus upload: \(tus.uploadURL ?? "not created yet") · \(HumanFormat.bytes(tus.offset)) of \(total) confirmed",
                                  style: Theme.heading))
            lines += tus.notes.map { TextLine("· " + DisplayWidth.escapingControls($0.description), style: Theme.dim) }
        }
        if let error = job.lastError, error.description != job.attemptHistory.last?.error {
            lines.append(TextLine("Last error: " + DisplayWidth.escapingControls(error.description), style: Theme.error))
        }
        if let response = job.response {
            lines.append(TextLine("Response: \(response.status)", style: response.isSuccess ? Theme.heading : Theme.error))
            if response.answerWasLost == true {
                lines.append(TextLine("· the answer was lost; the server said it holds the whole upload", style: Theme.dim))
            }
            for offset in response.resumedAt ?? [] {
                lines.append(TextLine("· " + Self.resumedText(offset, of: job.progress.totalBytes), style: Theme.dim))
            }
            for header in response.headers {
                lines.append(TextLine("· \(header.name): \(header.value)", style: Theme.dim))
            }
            if let link = ResponseLink.find(in: response) {
                lines.append(TextLine("Link: " + DisplayWidth.escapingControls(link), style: Theme.heading))
            }
            // A JSON answer is shown indented (no-break spaces, which wrapping keeps), its members in the server's order.
            let json = response.jsonBody
            let text = json?.prettyPrinted ?? response.bodyText
            var body = text.prefix(2000).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            if json != nil { body = body.map(Self.keepingIndent) }
            if !response.body.isEmpty {
                lines.append(TextLine("Body:", style: Theme.heading))
                lines += body.prefix(40).map { TextLine(DisplayWidth.escapingControls($0)) }
            }
        }
        return lines
    }

    /// Where a resumable request went on (after a lost connection, or a kill), in words.
    private static func resumedText(_ offset: Int64, of total: Int64?) -> String {
        guard let total, total > 0 else { return "resumed at byte \(offset), kept by the server" }
        return "resumed at \(Int(offset * 100 / total)) % (\(HumanFormat.bytes(offset)) of \(HumanFormat.bytes(total)) kept by the server)"
    }

    /// A line with its leading spaces made no-break spaces, which wrapping keeps.
    private static func keepingIndent(_ line: String) -> String {
        let indent = line.prefix { $0 == " " }.count
        return String(repeating: "\u{A0}", count: indent) + line.dropFirst(indent)
    }

    /// How many of the attempts were automatic retries, in words; empty when none were.
    private var automaticRetriesText: String {
        switch job.automaticRetries {
        case 0: ""
        case 1: ", 1 of them an automatic retry"
        case let count: ", \(count) of them automatic retries"
        }
    }

    /// The attempts heading, one line per recorded attempt (oldest first), a note for
    /// attempts no longer kept, and the attempt in flight.
    private var attemptLines: [TextLine] {
        var lines = [TextLine("Attempts: \(job.attempts)" + automaticRetriesText, style: Theme.heading)]
        if let first = job.attemptHistory.first?.number, first > 1 {
            let dropped = first == 2 ? "attempt 1" : "attempts 1–\(first - 1)"
            lines.append(TextLine("(\(dropped) not kept)", style: Theme.dim))
        }
        for attempt in job.attemptHistory {
            lines.append(TextLine(attempt.detailsLine(timeZone: timeZone), style: attempt.detailsStyle))
        }
        if job.state == .uploading {
            let total = HumanFormat.bytes(job.progress.totalBytes ?? job.spec.estimatedBytes)
            lines.append(TextLine("#\(job.attempts) now ↑ sending · \(HumanFormat.bytes(job.progress.bytesSent)) of \(total)",
                                  style: Theme.style(for: .uploading)))
        } else if job.attempts == 0 {
            lines.append(TextLine("(none yet)", style: Theme.dim))
        }
        return lines
    }
}
