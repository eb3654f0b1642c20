import FerryApp
import UploadModel

/// Stands in for the upload manager in model tests: turns the model's commands into the
/// events a manager would report, without I/O.
struct FakeUploadEngine {
    /// The jobs the engine knows, by ID.
    private(set) var jobs: [UploadJobID: UploadJob] = [:]
    /// Every command received, in order.
    private(set) var commands: [AppCommand] = []
    /// Whether the queue is paused.
    private(set) var isPaused = false
    private var nextID: Int64 = 1

    /// Receives commands and returns the messages a manager's events would produce.
    mutating func handle(_ commands: [AppCommand]) -> [AppMessage] {
        self.commands += commands
        var messages: [AppMessage] = []
        for command in commands {
            switch command {
            case .enqueue(let specs):
                for spec in specs {
                    let job = UploadJob(id: UploadJobID(nextID), spec: spec)
                    nextID += 1
                    jobs[job.id] = job
                    messages.append(.uploadEventReceived(.queued(job)))
                }
            case .retry(let id):
                if let failed = jobs[id] {
                    let job = Self.job(failed, in: .queued)
                    jobs[id] = job
                    messages.append(.uploadEventReceived(.queued(job)))
                }
            case .retryFailedAndCancelled:
                for ended in jobs.values.sorted(by: { $0.id < $1.id })
                where (ended.state == .failed || ended.state == .cancelled) && !ended.mayHaveArrived {
                    let job = Self.job(ended, in: .queued)
                    jobs[job.id] = job
                    messages.append(.uploadEventReceived(.queued(job)))
                }
            case .loadJobDetails(let id):
                if let job = jobs[id] { messages.append(.jobDetailsLoaded(job)) }
            case .remove(let id):
                jobs[id] = nil
                messages.append(.uploadEventReceived(.removed(id)))
            case .releaseHeld:
                for held in jobs.values.sorted(by: { $0.id < $1.id }) where held.isHeld {
                    let job = Self.job(held, in: .queued)
                    jobs[job.id] = job
                    messages.append(.uploadEventReceived(.queued(job)))
                }
            case .setPaused(let paused):
                guard paused != isPaused else { break }
                isPaused = paused
                messages.append(.uploadEventReceived(.pausedChanged(paused)))
            default:
                break
            }
        }
        return messages
    }

    /// Starts a job the way the manager reports it.
    mutating func start(_ id: UploadJobID) -> AppMessage {
        let queued = jobs[id]!
        let job = Self.job(queued, in: .uploading, attempts: queued.attempts + 1)
        jobs[id] = job
        return .uploadEventReceived(.started(job))
    }

    /// Knows a job restored from the journal, as the manager does after `restore()`.
    mutating func adopt(_ job: UploadJob) {
        jobs[job.id] = job
    }

    /// Finishes a job the way the manager reports it.
    mutating func finish(_ id: UploadJobID, status: Int) -> AppMessage {
        let sent = jobs[id]!
        let response = UploadResponse(status: status, body: Array("server says \(status)".utf8))
        if status < 300 {
            let job = Self.job(sent, in: .succeeded, attempts: sent.attempts + 1, response: response)
            jobs[id] = job
            return .uploadEventReceived(.succeeded(job))
        }
        let error = UploadError.serverRejected(status: status, retryAfter: nil)
        let job = Self.job(sent, in: .failed, attempts: sent.attempts + 1, lastError: error, response: response)
        jobs[id] = job
        return .uploadEventReceived(.failed(job, reason: error))
    }

    /// The job as the manager reports it in another state (a job's state is read-only).
    private static func job(
        _ job: UploadJob, in state: UploadJobState, attempts: Int? = nil, lastError: UploadError? = nil,
        response: UploadResponse? = nil
    ) -> UploadJob {
        UploadJob(id: job.id, spec: job.spec, state: state, progress: job.progress, attempts: attempts ?? job.attempts,
                  automaticRetries: job.automaticRetries, lastError: lastError ?? job.lastError,
                  response: response ?? job.response, attemptHistory: job.attemptHistory)
    }
}
