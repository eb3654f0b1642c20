import TerminalUI
import Uploading

/// The details view of one job: files, request summary, attempts, last error, response.
struct JobDetails: Widget {
    /// The job to describe.
    let job: UploadJob

    func render(in area: Rect, buffer: inout CellBuffer) {
        guard !area.isEmpty else { return }
        Paragraph(lines, wrap: true).render(in: area, buffer: &buffer)
    }

    private var lines: [TextLine] {
        let spec = job.spec
        var lines: [TextLine] = [
            TextLine([Span("Job \(job.id) ", style: Theme.heading),
                      Span("\(job.stateMark) \(job.state.rawValue)", style: Theme.style(for: job.state)),
                      Span("   Esc closes", style: Theme.dim)]),
        ]
        for file in spec.files {
            lines.append(TextLine("File: \(DisplayWidth.escapingControls(file.path)) (\(HumanFormat.bytes(file.size ?? 0)))"))
        }
        lines.append(TextLine("Request: \(spec.method) \(spec.url)"))
        for file in spec.files {
            let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
            lines.append(TextLine("Part: Content-Disposition: form-data; name=\"\(spec.fileField)\"; filename=\"\(name)\"",
                                  style: Theme.dim))
        }
        for field in spec.textFields {
            lines.append(TextLine("Param: \(field.name)=\(field.value)", style: Theme.dim))
        }
        for header in spec.headers {
            let value = FormRow(name: header.name, value: header.value).isSecretHeader ? "••••" : header.value
            lines.append(TextLine("Header: \(header.name): \(value)", style: Theme.dim))
        }
        let sent = "\(HumanFormat.bytes(job.progress.bytesSent)) of \(HumanFormat.bytes(job.progress.totalBytes ?? spec.estimatedBytes))"
        lines.append(TextLine("Attempts: \(job.attempts) (automatic retries \(job.automaticRetries)); sent \(sent)"))
        if let error = job.lastError {
            lines.append(TextLine("Last error: \(error.description)", style: Theme.error))
        }
        if let response = job.response {
            lines.append(TextLine("Response: \(response.status)", style: response.isSuccess ? Theme.heading : Theme.error))
            for header in response.headers {
                lines.append(TextLine("· \(header.name): \(header.value)", style: Theme.dim))
            }
            let body = response.bodyText.prefix(2000).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            if !response.body.isEmpty {
                lines.append(TextLine("Body:", style: Theme.heading))
                lines += body.prefix(40).map { TextLine(DisplayWidth.escapingControls($0)) }
            }
        }
        return lines
    }
}
