import Foundation

/// The upload queue's logic: the job table, the concurrency limit, pausing, retries, progress
/// throttling and each job's attempt history, with no I/O and no clock of its own.
///
/// Events come in as `mutating func`s (the caller passes the current time where it matters);
/// each returns the actions the caller must carry out, in order: start or abort a transfer, set
/// or cancel a timer, persist a row, emit an event. `UploadManager` drives it on its root queue;
/// tests drive it directly.
///
/// Transport events carry the attempt number they belong to; events of an attempt that is no
/// longer current (the job was cancelled, removed or stopped meanwhile) are ignored.
public struct UploadQueueStateMachine: Sendable {
    /// The timers the machine asks for.
    public enum TimerKey: Hashable, Sendable {
        /// A job's automatic-retry backoff is over.
        case retry(UploadJobID)
        /// A job's throttled progress is due to be emitted.
        case progressFlush(UploadJobID)
    }

    /// What the caller must do.
    public enum Action: Sendable, Hashable {
        /// Build the job's request from `spec` and start the transfer; report back with `attempt`.
        case start(UploadJobID, attempt: Int, spec: UploadJobSpec)
        /// Abort the job's in-flight transfer now; its completion will be ignored.
        case abort(UploadJobID)
        /// Call `timerFired(_:now:)` with the key at `at`, replacing any timer with that key.
        case scheduleTimer(TimerKey, at: SchedulerInstant)
        /// Cancel the timer with the key.
        case cancelTimer(TimerKey)
        /// Write the change to the journal.
        case persist(JournalChange)
        /// Publish the event.
        case emit(UploadEvent)
    }

    /// What the machine keeps about every job: small, since a queue may hold 100,000 of them.
    private struct JobRecord: Sendable, Identifiable {
        var job: UploadJob
        var readyTicket = -1

        var id: UploadJobID { job.id }
    }

    /// What the machine keeps about an attempt in flight; only in-flight jobs have one.
    private struct AttemptRecord: Sendable {
        /// When the transfer began, on the wall clock and the monotonic one.
        var startedAt: Date?
        var startInstant: SchedulerInstant?
        var rate: RateEstimator
        var lastProgressEmit: SchedulerInstant?
        var emittedBytes: Int64 = -1
        var flushScheduled = false
    }

    private struct ReadyEntry: Sendable {
        var id: UploadJobID
        var ticket: Int
    }

    private var configuration: UploadQueueConfiguration
    private var jobs = JobTable<JobRecord>()
    /// Jobs eligible to start, oldest first; stale entries are skipped by ticket.
    private var readyQueue: [ReadyEntry] = []
    private var readyHead = 0
    private var nextTicket = 0
    private var inFlight: [UploadJobID: AttemptRecord] = [:]
    private var counts: [UploadJobState: Int] = [:]
    private var paused = false
    private var wasIdle = true
    private var random: any RandomNumberGenerator & Sendable

    /// Creates an empty, running queue.
    ///
    /// - Parameters:
    ///   - configuration: Limits, retry policy, throttling.
    ///   - random: The source of retry jitter; inject a fixed one in tests.
    public init(
        configuration: UploadQueueConfiguration = UploadQueueConfiguration(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.random = random
    }

    // MARK: - Queries

    /// Whether new jobs are held back.
    public var isPaused: Bool { paused }

    /// The current concurrency limit.
    public var concurrencyLimit: Int { configuration.concurrencyLimit }

    /// The current retry policy.
    public var retryPolicy: RetryPolicy { configuration.retryPolicy }

    /// Whether nothing is queued or in flight.
    public var isIdle: Bool { count(.queued) == 0 && count(.uploading) == 0 }

    /// A job by ID.
    ///
    /// - Parameter id: The job's ID.
    /// - Returns: A copy of the job, or nil if there is no such job.
    public func job(_ id: UploadJobID) -> UploadJob? {
        jobs[id]?.job
    }

    /// The IDs of the jobs in a state, in ID order.
    ///
    /// - Parameter state: The state.
    /// - Returns: The IDs.
    public func jobIDs(in state: UploadJobState) -> [UploadJobID] {
        jobs.values.lazy.filter { $0.job.state == state }.map(\.job.id).sorted()
    }

    /// The jobs ``retryFailedAndCancelled(refreshedFiles:)`` retries: failed and cancelled
    /// ones that cannot have arrived, in ID order.
    ///
    /// - Returns: Their IDs.
    public func retriableTogether() -> [UploadJobID] {
        jobs.values.lazy
            .filter { ($0.job.state == .failed || $0.job.state == .cancelled) && !$0.job.mayHaveArrived }
            .map(\.job.id).sorted()
    }

    /// How many jobs are in a state.
    ///
    /// - Parameter state: The state.
    /// - Returns: The count.
    public func count(_ state: UploadJobState) -> Int {
        counts[state, default: 0]
    }

    /// Totals over the queue.
    public var summary: UploadSummary {
        var summary = UploadSummary()
        for record in jobs.values { summary.account(record.job, sign: 1) }
        return summary
    }

    /// A copy of the whole queue.
    public var snapshot: UploadQueueSnapshot {
        UploadQueueSnapshot(
            jobs: jobs.values.map(\.job).sorted { $0.id < $1.id },
            summary: summary,
            isPaused: paused,
            concurrencyLimit: configuration.concurrencyLimit
        )
    }

    // MARK: - Events from the user

    /// New jobs were queued.
    ///
    /// - Parameters:
    ///   - newJobs: The jobs, with their IDs; they are queued whatever state they carry. A job
    ///     whose ID is already in the queue is ignored.
    ///   - startingJobs: Whether to start jobs now as far as the limit allows; false while more
    ///     jobs of the same batch follow (a long batch is queued in slices, and every `queued`
    ///     event of a batch comes before its first start).
    /// - Returns: `queued` events, then starts as far as the limit allows.
    public mutating func enqueue(_ newJobs: [UploadJob], startingJobs: Bool = true) -> [Action] {
        var actions: [Action] = []
        for var job in newJobs where jobs[job.id] == nil {
            job.state = .queued
            job.retryAt = nil
            insert(job)
            makeReady(job.id)
            actions.append(.emit(.queued(job)))
        }
        if startingJobs { settle(&actions) }
        return actions
    }

    /// Makes room for `count` more jobs at once (a long batch about to be queued in slices), so
    /// the job table and the ready queue do not grow step by step.
    ///
    /// - Parameter count: How many jobs are about to be queued.
    public mutating func reserveCapacity(forAdding count: Int) {
        jobs.reserveCapacity(adding: count)
        let needed = readyQueue.count + count
        if needed > readyQueue.capacity { readyQueue.reserveCapacity(max(needed, readyQueue.capacity * 2)) }
    }

    /// Jobs were restored from the journal.
    ///
    /// Queued and uploading jobs are queued again; failed jobs stay failed (with their error);
    /// finished jobs are kept as they are. A job still marked uploading (the run that sent it
    /// ended without stopping the queue) gets its last attempt recorded as interrupted. A job listed in `changedFiles` is failed with
    /// `fileChangedSinceQueued` instead, so it is not sent silently. Always ends with `idle` if
    /// nothing is left to do, so a caller waiting for idleness is not left hanging.
    ///
    /// - Parameters:
    ///   - restored: The jobs as the journal had them.
    ///   - changedFiles: For jobs whose file changed since they were queued, that file's path.
    /// - Returns: The actions.
    public mutating func restore(_ restored: [UploadJob], changedFiles: [UploadJobID: String] = [:]) -> [Action] {
        var actions: [Action] = []
        for var job in restored.sorted(by: { $0.id < $1.id }) where jobs[job.id] == nil {
            job.retryAt = nil
            if job.state == .uploading, job.attempts > 0, job.attemptHistory.last?.number != job.attempts {
                job.recordAttempt(UploadAttempt(number: job.attempts, outcome: .interrupted))
            }
            if let path = changedFiles[job.id], job.state != .succeeded, job.state != .cancelled {
                job.state = .failed
                job.lastError = .fileChangedSinceQueued(path: path)
                insert(job)
                actions.append(.persist(.update(job, includingSpec: false)))
                actions.append(.emit(.failed(job, reason: .fileChangedSinceQueued(path: path))))
                continue
            }
            switch job.state {
            case .queued, .uploading:
                let wasUploading = job.state == .uploading
                job.state = .queued
                insert(job)
                makeReady(job.id)
                if wasUploading { actions.append(.persist(.update(job, includingSpec: false))) }
                actions.append(.emit(.queued(job)))
            case .failed:
                insert(job)
                actions.append(.emit(.failed(job, reason: job.lastError ?? .recorded(description: "failed in an earlier run"))))
            case .succeeded, .cancelled:
                insert(job)
            }
        }
        let wasIdleBefore = wasIdle
        settle(&actions)
        if isIdle, wasIdleBefore { actions.append(.emit(.idle(summary))) }
        return actions
    }

    /// The user paused the queue: nothing new starts; transfers in flight go on.
    ///
    /// - Returns: `pausedChanged(true)` if the queue was running; else nothing.
    public mutating func pause() -> [Action] {
        var actions: [Action] = []
        setPaused(true, &actions)
        return actions
    }

    /// The user resumed the queue.
    ///
    /// - Returns: `pausedChanged(false)` if the queue was paused, then starts as far as the
    ///   limit allows.
    public mutating func resume() -> [Action] {
        var actions: [Action] = []
        setPaused(false, &actions)
        settle(&actions)
        return actions
    }

    /// The user changed the concurrency limit. Lowering it aborts nothing: the queue lets
    /// in-flight jobs finish and starts no new one until it is under the limit.
    ///
    /// - Parameter limit: The new limit; values below 1 count as 1.
    /// - Returns: Starts, when the limit grew.
    public mutating func setConcurrencyLimit(_ limit: Int) -> [Action] {
        configuration.concurrencyLimit = max(1, limit)
        var actions: [Action] = []
        settle(&actions)
        return actions
    }

    /// The user changed the retry policy; it applies to failures from now on.
    ///
    /// - Parameter policy: The new policy.
    /// - Returns: No actions.
    public mutating func setRetryPolicy(_ policy: RetryPolicy) -> [Action] {
        configuration.retryPolicy = policy
        return []
    }

    /// The user cancelled a job. An in-flight transfer is aborted at once; a pending retry is
    /// dropped. Cancelling a succeeded or cancelled job does nothing.
    ///
    /// - Parameter id: The job.
    /// - Returns: The actions.
    public mutating func cancel(_ id: UploadJobID) -> [Action] {
        var actions: [Action] = []
        cancelOne(id, &actions)
        settle(&actions)
        return actions
    }

    /// The user cancelled every queued and in-flight job. Failed jobs keep their state and error.
    ///
    /// - Returns: The actions.
    public mutating func cancelAll() -> [Action] {
        var actions: [Action] = []
        for id in jobs.values.lazy.filter({ $0.job.state == .queued || $0.job.state == .uploading }).map(\.job.id).sorted() {
            cancelOne(id, &actions)
        }
        settle(&actions)
        return actions
    }

    /// The user retried a failed or cancelled job, or a job waiting for its automatic retry
    /// (which then goes at once). Its automatic-retry count starts again from zero.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - refreshedFiles: The job's files re-captured now, to accept files that changed since
    ///     they were queued; nil keeps the recorded ones.
    /// - Returns: The actions.
    public mutating func retry(_ id: UploadJobID, refreshedFiles: [QueuedFile]? = nil) -> [Action] {
        var actions: [Action] = []
        retryOne(id, refreshedFiles: refreshedFiles, &actions)
        settle(&actions)
        return actions
    }

    /// The user retried every failed and cancelled job — except those that may have arrived
    /// (``UploadJob/mayHaveArrived``), which are retried one by one, knowingly.
    ///
    /// - Parameter refreshedFiles: Re-captured files per job, as for `retry(_:refreshedFiles:)`.
    /// - Returns: The actions.
    public mutating func retryFailedAndCancelled(refreshedFiles: [UploadJobID: [QueuedFile]] = [:]) -> [Action] {
        var actions: [Action] = []
        for id in retriableTogether() {
            retryOne(id, refreshedFiles: refreshedFiles[id], &actions)
        }
        settle(&actions)
        return actions
    }

    /// The user removed a job: an in-flight transfer is aborted, its row deleted.
    ///
    /// - Parameter id: The job.
    /// - Returns: The actions.
    public mutating func remove(_ id: UploadJobID) -> [Action] {
        guard var record = jobs[id] else { return [] }
        var actions: [Action] = []
        detach(&record, &actions)
        jobs[id] = nil
        counts[record.job.state, default: 0] -= 1
        actions.append(.persist(.delete([id])))
        actions.append(.emit(.removed(id)))
        settle(&actions)
        return actions
    }

    /// The user cleared the done jobs: succeeded ones leave the queue (failed and cancelled ones
    /// stay, they wait for the user).
    ///
    /// - Returns: One `delete` for all their rows and a `removed` event per job.
    public mutating func clearSucceeded() -> [Action] {
        let ids = jobIDs(in: .succeeded)
        guard !ids.isEmpty else { return [] }
        var actions: [Action] = [.persist(.delete(ids))]
        for id in ids {
            if let record = jobs.removeValue(forKey: id) { counts[record.job.state, default: 0] -= 1 }
            actions.append(.emit(.removed(id)))
        }
        settle(&actions)
        return actions
    }

    /// The program is stopping (Ctrl-C, quit): the queue pauses (`pausedChanged(true)` if it
    /// was running), in-flight transfers are aborted
    /// and their jobs, like those waiting for a retry, go back to queued, so the journal holds
    /// them for the next run. The aborted attempts still count in `attempts` and are recorded
    /// as interrupted — except that a job whose whole body was sent (its last progress report
    /// said so) and which has no answer yet fails with `stoppedAfterSending`: the server may have
    /// stored it, so it is not sent again unless the user retries it.
    ///
    /// - Returns: The actions.
    public mutating func stop() -> [Action] {
        var actions: [Action] = []
        setPaused(true, &actions)
        let affected = jobs.values.lazy
            .filter { $0.job.state == .uploading || ($0.job.state == .queued && $0.job.retryAt != nil) }
            .map(\.job.id).sorted()
        for id in affected {
            guard var record = jobs[id] else { continue }
            let flight = detach(&record, &actions)
            let progress = record.job.progress
            if record.job.state == .uploading, let total = progress.totalBytes, total > 0, progress.bytesSent >= total {
                let error = UploadError.transferFailed(reason: .stoppedAfterSending)
                record.job.lastError = error
                record.job.progress.bytesPerSecond = nil
                record.job.progress.estimatedTimeRemaining = nil
                endAttempt(&record, flight, .interrupted, error: error.description)
                setState(&record, .failed)
                jobs[id] = record
                actions.append(.persist(.update(record.job, includingSpec: false)))
                actions.append(.emit(.failed(record.job, reason: error)))
                continue
            }
            if record.job.state == .uploading { endAttempt(&record, flight, .interrupted) }
            setState(&record, .queued)
            record.job.progress.bytesPerSecond = nil
            record.job.progress.estimatedTimeRemaining = nil
            jobs[id] = record
            makeReady(id)
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.queued(record.job)))
        }
        settle(&actions)
        return actions
    }

    // MARK: - Events from the transport and the clock

    /// The job's request was built and its transfer handed to the transport.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt from the `start` action.
    ///   - totalBytes: The body's exact length.
    ///   - now: The current instant.
    ///   - date: The current wall-clock time, recorded as the attempt's start.
    /// - Returns: The `started` event.
    public mutating func transferBegan(
        _ id: UploadJobID, attempt: Int, totalBytes: Int64, now: SchedulerInstant, date: Date
    ) -> [Action] {
        guard var record = current(id, attempt), var flight = inFlight[id] else { return [] }
        flight.startedAt = date
        flight.startInstant = now
        record.job.progress = UploadProgress(bytesSent: 0, totalBytes: totalBytes)
        flight.rate.reset()
        flight.rate.record(0, at: now)
        flight.lastProgressEmit = now
        flight.emittedBytes = 0
        jobs[id] = record
        inFlight[id] = flight
        return [.emit(.started(record.job))]
    }

    /// The transport wrote more of the body.
    ///
    /// Progress events are throttled to one per `progressInterval` per job; a report that comes
    /// too soon is emitted by a flush timer at the end of the interval.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - bytesSent: Cumulative body bytes written in this attempt.
    ///   - now: The current instant.
    /// - Returns: A `progressed` event, a flush timer, or nothing.
    public mutating func transportProgressed(_ id: UploadJobID, attempt: Int, bytesSent: Int64, now: SchedulerInstant) -> [Action] {
        guard var record = current(id, attempt), var flight = inFlight[id] else { return [] }
        var actions: [Action] = []
        record.job.progress.bytesSent = max(0, bytesSent)
        flight.rate.record(record.job.progress.bytesSent, at: now)
        updateRate(&record, flight.rate)
        if let last = flight.lastProgressEmit, now - last < configuration.progressInterval {
            if !flight.flushScheduled {
                flight.flushScheduled = true
                actions.append(.scheduleTimer(.progressFlush(id), at: last + configuration.progressInterval))
            }
        } else {
            emitProgress(record, &flight, now: now, &actions)
        }
        jobs[id] = record
        inFlight[id] = flight
        return actions
    }

    /// The server answered. 2xx succeeds; any other status is a failure handled by the retry
    /// policy (408, 429 and 5xx retried, honouring `retryAfter`).
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - response: The captured response.
    ///   - retryAfter: The delay its `Retry-After` header asks for, already resolved.
    ///   - now: The current instant.
    /// - Returns: The actions.
    public mutating func transportCompleted(
        _ id: UploadJobID, attempt: Int, response: UploadResponse, retryAfter: Duration?, now: SchedulerInstant
    ) -> [Action] {
        guard var record = current(id, attempt) else { return [] }
        var actions: [Action] = []
        let flight = detach(&record, transferEnded: true, &actions)
        record.job.response = response
        if response.isSuccess {
            setState(&record, .succeeded)
            record.job.lastError = nil
            if let total = record.job.progress.totalBytes { record.job.progress.bytesSent = total }
            endAttempt(&record, flight, .succeeded, status: response.status, now: now)
            record.job.progress.estimatedTimeRemaining = .zero
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.succeeded(record.job)))
            if !configuration.keepsSucceededJobDetails {
                record.job.response = nil
                record.job.attemptHistory = []
            }
            jobs[id] = record
        } else {
            fail(&record, flight, .serverRejected(status: response.status, retryAfter: retryAfter), now: now, &actions)
        }
        settle(&actions)
        return actions
    }

    /// The attempt failed before a response: a transport error, or the body could not be built
    /// (a local file error, reported before the transfer began).
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - error: What went wrong.
    ///   - now: The current instant.
    /// - Returns: The actions.
    public mutating func transportFailed(_ id: UploadJobID, attempt: Int, error: UploadError, now: SchedulerInstant) -> [Action] {
        guard var record = current(id, attempt) else { return [] }
        var actions: [Action] = []
        let flight = detach(&record, transferEnded: true, &actions)
        fail(&record, flight, error, now: now, &actions)
        settle(&actions)
        return actions
    }

    /// A timer the machine asked for fired.
    ///
    /// - Parameters:
    ///   - key: The timer.
    ///   - now: The current instant.
    /// - Returns: The actions.
    public mutating func timerFired(_ key: TimerKey, now: SchedulerInstant) -> [Action] {
        var actions: [Action] = []
        switch key {
        case let .retry(id):
            guard var record = jobs[id], record.job.state == .queued, record.job.retryAt != nil else { return [] }
            record.job.retryAt = nil
            jobs[id] = record
            makeReady(id)
            settle(&actions)
        case let .progressFlush(id):
            guard let record = jobs[id], var flight = inFlight[id], flight.flushScheduled else { return [] }
            flight.flushScheduled = false
            if record.job.state == .uploading, record.job.progress.bytesSent != flight.emittedBytes {
                emitProgress(record, &flight, now: now, &actions)
            }
            inFlight[id] = flight
        }
        return actions
    }

    // MARK: - Internals

    private func current(_ id: UploadJobID, _ attempt: Int) -> JobRecord? {
        guard let record = jobs[id], record.job.state == .uploading, record.job.attempts == attempt else { return nil }
        return record
    }

    private mutating func insert(_ job: UploadJob) {
        jobs[job.id] = JobRecord(job: job)
        counts[job.state, default: 0] += 1
    }

    private mutating func setState(_ record: inout JobRecord, _ state: UploadJobState) {
        counts[record.job.state, default: 0] -= 1
        counts[state, default: 0] += 1
        record.job.state = state
    }

    /// Pauses or resumes, announcing the change (and only a change).
    private mutating func setPaused(_ isPaused: Bool, _ actions: inout [Action]) {
        guard paused != isPaused else { return }
        paused = isPaused
        actions.append(.emit(.pausedChanged(isPaused)))
    }

    private mutating func makeReady(_ id: UploadJobID) {
        jobs[id]?.readyTicket = nextTicket
        readyQueue.append(ReadyEntry(id: id, ticket: nextTicket))
        nextTicket += 1
    }

    private mutating func popReady() -> UploadJobID? {
        while readyHead < readyQueue.count {
            let entry = readyQueue[readyHead]
            readyHead += 1
            if let record = jobs[entry.id], record.readyTicket == entry.ticket,
               record.job.state == .queued, record.job.retryAt == nil {
                if readyHead >= 4096, readyHead * 2 >= readyQueue.count {
                    readyQueue.removeFirst(readyHead)
                    readyHead = 0
                }
                return entry.id
            }
        }
        readyQueue.removeAll(keepingCapacity: true)
        readyHead = 0
        return nil
    }

    /// Takes the job out of flight or out of its retry wait, asking for the matching abort
    /// (unless the transfer already ended) or timer cancellation. The caller sets the new state.
    ///
    /// - Returns: The attempt that was in flight, if any, for ``endAttempt(_:_:_:status:error:retryDelay:now:)``.
    @discardableResult
    private mutating func detach(_ record: inout JobRecord, transferEnded: Bool = false, _ actions: inout [Action]) -> AttemptRecord? {
        let id = record.job.id
        switch record.job.state {
        case .uploading:
            let flight = inFlight.removeValue(forKey: id)
            if flight?.flushScheduled == true {
                actions.append(.cancelTimer(.progressFlush(id)))
            }
            if !transferEnded { actions.append(.abort(id)) }
            return flight
        case .queued where record.job.retryAt != nil:
            record.job.retryAt = nil
            actions.append(.cancelTimer(.retry(id)))
            return nil
        default:
            return nil
        }
    }

    private mutating func cancelOne(_ id: UploadJobID, _ actions: inout [Action]) {
        guard var record = jobs[id] else { return }
        switch record.job.state {
        case .queued, .uploading, .failed: break
        case .succeeded, .cancelled: return
        }
        let flight = detach(&record, &actions)
        if record.job.state == .uploading { endAttempt(&record, flight, .cancelled) }
        setState(&record, .cancelled)
        record.job.progress.bytesPerSecond = nil
        record.job.progress.estimatedTimeRemaining = nil
        jobs[id] = record
        actions.append(.persist(.update(record.job, includingSpec: false)))
        actions.append(.emit(.cancelled(record.job)))
    }

    private mutating func retryOne(_ id: UploadJobID, refreshedFiles: [QueuedFile]?, _ actions: inout [Action]) {
        guard var record = jobs[id] else { return }
        switch record.job.state {
        case .failed, .cancelled: break
        case .queued where record.job.retryAt != nil: detach(&record, &actions)
        case .queued, .uploading, .succeeded: return
        }
        if let refreshedFiles { record.job.spec.files = refreshedFiles }
        record.job.automaticRetries = 0
        record.job.progress.bytesSent = 0
        record.job.progress.bytesPerSecond = nil
        record.job.progress.estimatedTimeRemaining = nil
        setState(&record, .queued)
        jobs[id] = record
        makeReady(id)
        actions.append(.persist(.update(record.job, includingSpec: refreshedFiles != nil)))
        actions.append(.emit(.queued(record.job)))
    }

    private mutating func fail(
        _ record: inout JobRecord, _ flight: AttemptRecord?, _ error: UploadError, now: SchedulerInstant, _ actions: inout [Action]
    ) {
        let id = record.job.id
        record.job.lastError = error
        record.job.progress.bytesPerSecond = nil
        record.job.progress.estimatedTimeRemaining = nil
        var policy = configuration.retryPolicy
        if let limit = record.job.spec.maximumRetries { policy.maximumRetries = max(0, limit) }
        let delay = policy.delay(after: error, retriesSoFar: record.job.automaticRetries, jitter: { nextJitter() })
        var status: Int?
        if case let .serverRejected(rejected, _) = error { status = rejected }
        endAttempt(&record, flight, .failed, status: status, error: error.description, retryDelay: delay, now: now)
        if let delay {
            record.job.automaticRetries += 1
            setState(&record, .queued)
            let deadline = now + delay
            record.job.retryAt = deadline
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.scheduleTimer(.retry(id), at: deadline))
            actions.append(.emit(.retrying(record.job, after: delay)))
        } else {
            setState(&record, .failed)
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.failed(record.job, reason: error)))
        }
    }

    /// Records the job's current attempt in its history. `now` gives the duration; without it
    /// (a cancel or a stop, which carry no time) the attempt has none.
    private func endAttempt(
        _ record: inout JobRecord, _ flight: AttemptRecord?, _ outcome: UploadAttempt.Outcome, status: Int? = nil,
        error: String? = nil, retryDelay: Duration? = nil, now: SchedulerInstant? = nil
    ) {
        let began = flight?.startInstant
        record.job.recordAttempt(UploadAttempt(
            number: record.job.attempts,
            outcome: outcome,
            startedAt: flight?.startedAt,
            duration: began.flatMap { start in now.map { $0 - start } },
            bytesSent: began == nil ? 0 : record.job.progress.bytesSent,
            totalBytes: began == nil ? nil : record.job.progress.totalBytes,
            status: status,
            error: error,
            retryDelay: retryDelay
        ))
    }

    private func updateRate(_ record: inout JobRecord, _ estimator: RateEstimator) {
        let rate = estimator.bytesPerSecond
        record.job.progress.bytesPerSecond = rate
        if let rate, rate > 0, let total = record.job.progress.totalBytes {
            let remaining = Double(max(0, total - record.job.progress.bytesSent)) / rate
            record.job.progress.estimatedTimeRemaining = .milliseconds(Int64((remaining * 1000).rounded()))
        } else {
            record.job.progress.estimatedTimeRemaining = nil
        }
    }

    private func emitProgress(_ record: JobRecord, _ flight: inout AttemptRecord, now: SchedulerInstant, _ actions: inout [Action]) {
        flight.lastProgressEmit = now
        flight.emittedBytes = record.job.progress.bytesSent
        actions.append(.emit(.progressed(record.job)))
    }

    /// Starts jobs while the limit allows, then emits `idle` when the queue just became idle.
    private mutating func settle(_ actions: inout [Action]) {
        while !paused, inFlight.count < configuration.concurrencyLimit, let id = popReady() {
            guard var record = jobs[id] else { continue }
            record.job.attempts += 1
            setState(&record, .uploading)
            record.job.progress = UploadProgress(bytesSent: 0, totalBytes: record.job.progress.totalBytes)
            jobs[id] = record
            inFlight[id] = AttemptRecord(rate: RateEstimator(window: configuration.rateWindow))
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.start(id, attempt: record.job.attempts, spec: record.job.spec))
        }
        let idle = isIdle
        if idle, !wasIdle { actions.append(.emit(.idle(summary))) }
        wasIdle = idle
    }

    private mutating func nextJitter() -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }
}
