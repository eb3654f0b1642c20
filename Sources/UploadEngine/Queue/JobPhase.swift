import UploadModel

/// Where one job is in the queue, with the data that belongs to that phase and to no other, so
/// a job cannot be, say, waiting with an attempt in flight or finished with a retry deadline.
///
/// ```
///              ┌──────────── (stop, user retry) ◀──────────────┐
///              ▼                                                │
///  enqueue ─▶ waiting ─(a free slot)─▶ uploading ─(2xx)─▶ finished(succeeded)
///              ▲                        │  │  └─(stop after the whole body)─▶ finished(failed)
///              │      (retryable error) │  └─(not retryable, retries used)─▶ finished(failed)
///              └─(timer)── backingOff ◀─┘                  (cancel) ─▶ finished(cancelled)
/// ```
/// A restored job may instead be `held` (queued, outside the ready queue) until the user
/// releases it, when it becomes `waiting`; new jobs start meanwhile.
/// `UploadJob.state`, `UploadJob.retryAt` and `UploadJob.isHeld` are its projection
/// (``state``, ``retryAt``, ``isHeld``).
enum JobPhase: Sendable {
    /// Eligible to start, in the ready queue under `ticket` (a lower ticket starts first) — or
    /// set aside under it while its endpoint is paused (`PausedEndpoint`), until the pause ends.
    case waiting(ticket: Int)
    /// Queued but held back until the user releases it (``UploadQueueStateMachine/releaseHeld()``);
    /// not in the ready queue.
    case held
    /// Waiting for its automatic retry until the instant; a `retry` timer is set for it.
    case backingOff(until: SchedulerInstant)
    /// An attempt is in flight. Boxed, so the phase of a queued job stays small.
    indirect case uploading(AttemptInFlight)
    /// Done until the user acts.
    case finished(JobOutcome)

    /// The state the public `UploadJob` shows.
    var state: UploadJobState {
        switch self {
        case .waiting, .held, .backingOff: .queued
        case .uploading: .uploading
        case .finished(.succeeded): .succeeded
        case .finished(.failed): .failed
        case .finished(.cancelled): .cancelled
        }
    }

    /// When a job backing off becomes eligible again; nil in every other phase.
    var retryAt: SchedulerInstant? {
        if case let .backingOff(until) = self { return until }
        return nil
    }

    /// Whether the job is held back until the user releases it.
    var isHeld: Bool {
        if case .held = self { return true }
        return false
    }
}
