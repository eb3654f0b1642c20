import FerryApp
import Uploading

/// Stands in for the upload manager in model tests: turns the model's commands into the
/// events a manager would report, without I/O.
struct FakeUploadEngine {
    /// The jobs the engine knows, by ID.
    private(set) var jobs: [UploadJobID: UploadJob] = [:]
    /// Every command received, in order.
    private(set) var commands: [AppCommand] = []
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
                if var job = jobs[id] {
                    job.state = .queued
                    jobs[id] = job
                    messages.append(.uploadEventReceived(.queued(job)))
                }
            case .retryFailedAndCancelled:
                for var job in jobs.values.sorted(by: { $0.id < $1.id })
                where (job.state == .failed || job.state == .cancelled) && !job.mayHaveArrived {
                    job.state = .queued
                    jobs[job.id] = job
                    messages.append(.uploadEventReceived(.queued(job)))
                }
            case .remove(let id):
                jobs[id] = nil
                messages.append(.uploadEventReceived(.removed(id)))
            default:
                break
            }
        }
        return messages
    }

    /// Starts a job the way the manager reports it.
    mutating func start(_ id: UploadJobID) -> AppMessage {
        var job = jobs[id]!
        job.state = .uploading
        job.attempts += 1
        jobs[id] = job
        return .uploadEventReceived(.started(job))
    }

    /// Knows a job restored from the journal, as the manager does after `restore()`.
    mutating func adopt(_ job: UploadJob) {
        jobs[job.id] = job
    }

    /// Finishes a job the way the manager reports it.
    mutating func finish(_ id: UploadJobID, status: Int) -> AppMessage {
        var job = jobs[id]!
        job.attempts += 1
        job.response = UploadResponse(status: status, body: Array("server says \(status)".utf8))
        if status < 300 {
            job.state = .succeeded
            jobs[id] = job
            return .uploadEventReceived(.succeeded(job))
        }
        job.state = .failed
        let error = UploadError.serverRejected(status: status, retryAfter: nil)
        job.lastError = error
        jobs[id] = job
        return .uploadEventReceived(.failed(job, reason: error))
    }
}
