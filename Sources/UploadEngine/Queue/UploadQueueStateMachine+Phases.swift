import FoundationEssentials
import UploadModel

/// The moves between a job's phases that the machine's events share: entering a phase (and
/// keeping the counts by state), leaving one (with the abort or timer cancellation it needs),
/// starting jobs while the limit allows, and pausing.
extension UploadQueueStateMachine {
    /// Adds a job to the table in a phase.
    ///
    /// - Returns: The record, the job's state and retry instant now the phase's.
    @discardableResult
    mutating func insert(_ job: UploadJob, _ phase: JobPhase) -> JobRecord {
        let record = JobRecord(job: job, phase: phase)
        jobs[job.id] = record
        counts[phase.state, default: 0] += 1
        return record
    }

    /// Adds a job to the table, waiting at the end of the ready queue.
    ///
    /// - Returns: The record.
    @discardableResult
    mutating func insertWaiting(_ job: UploadJob) -> JobRecord {
        insert(job, .waiting(ticket: readyQueue.append(job.id)))
    }

    /// Moves a job to another phase. The caller stores the record.
    mutating func enter(_ phase: JobPhase, _ record: inout JobRecord) {
        counts[record.phase.state, default: 0] -= 1
        counts[phase.state, default: 0] += 1
        record.phase = phase
    }

    /// Moves a job to the end of the ready queue. The caller stores the record.
    mutating func enterWaiting(_ record: inout JobRecord) {
        enter(.waiting(ticket: readyQueue.append(record.id)), &record)
    }

    /// Takes a job out of the table.
    mutating func delete(_ id: UploadJobID) {
        guard let record = jobs.removeValue(forKey: id) else { return }
        counts[record.phase.state, default: 0] -= 1
    }

    /// What a job leaving its phase needs: an attempt in flight is aborted (unless its transfer
    /// already ended); a backoff's timer is cancelled. The
    /// caller then enters the next phase, or deletes the job.
    ///
    /// - Returns: The attempt that was in flight, if any, for ``endAttempt(_:_:_:status:error:retryDelay:now:)``.
    @discardableResult
    func leave(_ record: JobRecord, transferEnded: Bool = false, _ actions: inout [Action]) -> AttemptInFlight? {
        switch record.phase {
        case let .uploading(attempt):
            if !transferEnded { actions.append(.abort(record.id)) }
            return attempt
        case .backingOff:
            actions.append(.cancelTimer(.retry(record.id)))
            return nil
        case .waiting, .held, .finished:
            return nil
        }
    }

    /// The job and its attempt, if `attempt` is the one it has in flight.
    func current(_ id: UploadJobID, _ attempt: Int) -> (record: JobRecord, attempt: AttemptInFlight)? {
        guard let record = jobs[id], case let .uploading(flight) = record.phase, flight.number == attempt else { return nil }
        return (record, flight)
    }

    /// Pauses or resumes, announcing the change (and only a change).
    mutating func setPaused(_ isPaused: Bool, _ actions: inout [Action]) {
        guard paused != isPaused else { return }
        paused = isPaused
        actions.append(.emit(.pausedChanged(isPaused)))
    }

    /// Starts waiting jobs while the limit allows, then emits `idle` when the queue just became idle.
    mutating func settle(_ actions: inout [Action]) {
        while !paused, count(.uploading) < configuration.concurrencyLimit, let id = popWaiting() {
            guard var record = jobs[id] else { continue }
            if !pausedEndpoints.isEmpty, heldByEndpoint(&record, &actions) { continue }
            record.job.attempts += 1
            enter(.uploading(AttemptInFlight(number: record.job.attempts, rateWindow: configuration.rateWindow)), &record)
            record.job.progress = UploadProgress(bytesSent: 0, totalBytes: record.job.progress.totalBytes)
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.start(id, attempt: record.job.attempts, spec: record.job.spec))
        }
        let idle = isIdle
        if idle, !wasIdle { actions.append(.emit(.idle(summary))) }
        wasIdle = idle
    }

    /// The oldest job still waiting under the ticket the ready queue has for it.
    private mutating func popWaiting() -> UploadJobID? {
        // The ready queue is moved out while it looks the jobs up (no copy of either).
        var ready = ReadyQueue()
        swap(&ready, &readyQueue)
        defer { swap(&ready, &readyQueue) }
        return ready.popFirst { id, ticket in
            if case .waiting(ticket)? = jobs[id]?.phase { return true }
            return false
        }
    }

    /// A jitter fraction in [0, 1).
    mutating func nextJitter() -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }
}
