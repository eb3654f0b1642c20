@testable import UploadModel
@testable import UploadEngine

/// Short text forms of state-machine actions, so table tests read as lists of lines.
enum ActionDescription {
    static func describe(_ actions: [UploadQueueStateMachine.Action]) -> [String] {
        actions.map(describe)
    }

    static func describe(_ action: UploadQueueStateMachine.Action) -> String {
        switch action {
        case let .start(id, attempt, _): return "start \(id)#\(attempt)"
        case let .abort(id): return "abort \(id)"
        case let .interrupt(id): return "interrupt \(id)"
        case let .scheduleTimer(key, deadline): return "timer \(describe(key)) at \(milliseconds(deadline))ms"
        case let .cancelTimer(key): return "cancel timer \(describe(key))"
        case let .persist(.update(job, includingSpec)): return "persist \(job.id) \(job.state)" + (includingSpec ? " +spec" : "")
        case let .persist(.delete(ids)): return "delete " + ids.map(\.description).joined(separator: ",")
        case let .persist(.urlHonoursIdempotencyKeys(url)): return "remember \(url) honours keys"
        case let .emit(event): return describe(event)
        }
    }

    static func describe(_ event: UploadEvent) -> String {
        switch event {
        case let .queued(job): return "queued \(job.id)" + (job.isHeld ? " held" : "")
        case let .started(job): return "started \(job.id) total=\(job.progress.totalBytes.map(String.init) ?? "?")"
        case let .progressed(job): return "progressed \(job.id) bytes=\(job.progress.bytesSent)"
        case let .retrying(job, after): return "retrying \(job.id) after \(after.nanoseconds / 1_000_000)ms"
        case let .succeeded(job): return "succeeded \(job.id)"
        case let .failed(job, reason): return "failed \(job.id) \(short(reason))"
        case let .cancelled(job): return "cancelled \(job.id)"
        case let .removed(id): return "removed \(id)"
        case let .pausedChanged(isPaused): return isPaused ? "paused" : "resumed"
        case let .endpointPaused(endpoint, pause):
            var reasons: [String] = []
            if let status = pause.refusedCredentials { reasons.append("credentials \(status)") }
            if let wait = pause.wait { reasons.append("\(wait.status) until \(milliseconds(wait.until))ms") }
            return "paused \(endpoint) " + reasons.joined(separator: ", ")
        case let .endpointResumed(endpoint): return "resumed \(endpoint)"
        case let .idle(summary): return "idle ok=\(summary.succeeded) failed=\(summary.failed) cancelled=\(summary.cancelled)"
        case let .journalFailed(error): return "journal failed \(error)"
        }
    }

    static func short(_ error: UploadError) -> String {
        switch error {
        case let .serverRejected(status, _, _): return "status \(status)"
        case let .redirectRefused(status, _): return "redirect \(status)"
        case .transferFailed: return "transfer"
        case .multipartFailed: return "multipart"
        case .fileChangedSinceQueued: return "changed"
        case .requestInvalid: return "request"
        case .journalFailed: return "journal"
        case .recorded: return "recorded"
        case .tusFailed: return "tus"
        case let .credentialsRefused(_, status): return "unsent \(status)"
        }
    }

    static func describe(_ key: UploadQueueStateMachine.TimerKey) -> String {
        switch key {
        case let .retry(id): return "retry \(id)"
        case let .endpointWait(endpoint): return "wait \(endpoint)"
        }
    }

    static func milliseconds(_ instant: SchedulerInstant) -> Int64 {
        instant.nanoseconds / 1_000_000
    }
}
