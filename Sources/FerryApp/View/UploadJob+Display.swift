import UploadModel

extension UploadJob {
    /// The job's name: its file's last path component (displayable: bytes that are not UTF-8
    /// as `\xNN`, controls escaped), with a count when it sends several.
    var displayName: String {
        guard let first = spec.files.first else { return "(no files)" }
        let name = first.path.displayableLastComponent
        return spec.files.count > 1 ? "\(name) +\(spec.files.count - 1)" : name
    }

    /// The mark in front of the row.
    var stateMark: String {
        switch state {
        case .queued: "·"
        case .uploading: "↑"
        case .succeeded: "✓"
        case .failed: "✗"
        case .cancelled: "⊘"
        }
    }

    /// Why the job failed, short: the HTTP status and a word, or the local error.
    var failureSummary: String {
        // A redirect not followed says where the endpoint went; the 3xx page's text would not.
        if case .redirectRefused? = lastError, let lastError { return lastError.description }
        // The reason an S3 store gave in its XML error, in words, rather than the XML's first line.
        if case .serverRejected(let status, _, let message?)? = lastError { return "HTTP \(status) \(message)" }
        if let response, !response.isSuccess {
            let text = response.bodyText.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return "HTTP \(response.status)" + (text.isEmpty ? "" : " " + text)
        }
        if case .serverRejected(let status, _, _)? = lastError { return "HTTP \(status)" }
        if mayHaveArrived { return "may have arrived: r to resend" }
        return lastError?.description ?? "failed"
    }
}
