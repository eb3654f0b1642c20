import FoundationEssentials
import TerminalUI
import TextFormat
import UploadModel

extension UploadAttempt {
    /// One line of the details view: number, start time, how it ended, how far it got, how
    /// long it took and the automatic retry that followed.
    ///
    /// - Parameter timeZone: The zone the start time is shown in.
    /// - Returns: Text such as `#2 2026-11-22 05:13:07 ✗ the server answered 503 · 1.0 KB of
    ///   4.0 KB in 0.3s · retry after 1.0s` (single spaces: the view wraps words).
    func detailsLine(timeZone: TimeZone = .current) -> String {
        var parts = ["#\(number) " + (startedAt.map { HumanFormat.preciseTimestamp($0, timeZone: timeZone) } ?? "(not started)")]
        switch outcome {
        case .succeeded: parts[0] += " ✓ HTTP \(status.map(String.init) ?? "2xx")"
        case .failed: parts[0] += " ✗ " + (error.map { DisplayWidth.escapingControls($0) } ?? status.map { "HTTP \($0)" } ?? "failed")
        case .cancelled: parts[0] += " ⊘ cancelled"
        case .interrupted: parts[0] += " ⊘ interrupted: Ferry stopped while sending"
        }
        if let totalBytes {
            let sent = HumanFormat.bytes(bytesSent)
            var transfer = bytesSent == totalBytes ? sent : "\(sent) of \(HumanFormat.bytes(totalBytes))"
            if let duration { transfer += " in \(HumanFormat.elapsed(duration))" }
            parts.append(transfer)
        }
        if let retryDelay { parts.append("retry after \(HumanFormat.elapsed(retryDelay))") }
        return parts.joined(separator: " · ")
    }

    /// The style of its line: errors stand out, cut-short attempts are dim.
    var detailsStyle: Style {
        switch outcome {
        case .succeeded: Theme.style(for: .succeeded)
        case .failed: Theme.error
        case .cancelled, .interrupted: Theme.dim
        }
    }
}
