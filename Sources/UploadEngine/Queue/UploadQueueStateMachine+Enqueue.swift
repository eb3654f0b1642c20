import UploadModel

/// Jobs entering the queue: new ones, and those restored from the journal.
extension UploadQueueStateMachine {
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
        for job in newJobs where jobs[job.id] == nil {
            let record = insertWaiting(job)
            actions.append(.emit(.queued(record.job)))
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
        readyQueue.reserveCapacity(forAdding: count)
    }

    /// Jobs were restored from the journal.
    ///
    /// Queued and uploading jobs are queued again — held back until ``releaseHeld()`` when
    /// `holding`, so new jobs start while they wait for the user; failed jobs stay failed (with their error);
    /// finished jobs are kept as they are. A job still marked uploading (the run that sent it
    /// ended without stopping the queue) gets its last attempt recorded as interrupted. A job
    /// listed in `changedFiles` is failed with `fileChangedSinceQueued` instead, so it is not
    /// sent silently. A queued job whose answer was lost ("may have arrived", waiting for its
    /// server's verdict on `Idempotency-Key` when its run ended) is queued only when its server
    /// honours keys, and fails otherwise. Always ends with `idle` if nothing is left to do, so a caller waiting for
    /// idleness is not left hanging.
    ///
    /// - Parameters:
    ///   - restored: The jobs as the journal had them.
    ///   - changedFiles: For jobs whose file changed since they were queued, that file's path.
    ///   - holding: Whether unfinished jobs are held instead of waiting to start.
    /// - Returns: The actions.
    public mutating func restore(_ restored: [UploadJob], changedFiles: [UploadJobID: String] = [:],
                                 holding: Bool = false) -> [Action] {
        var actions: [Action] = []
        for var job in restored.sorted(by: { $0.id < $1.id }) where jobs[job.id] == nil {
            if job.state == .uploading, job.attempts > 0, job.attemptHistory.last?.number != job.attempts {
                job.recordAttempt(UploadAttempt(number: job.attempts, outcome: .interrupted))
            }
            if let path = changedFiles[job.id], job.state != .succeeded, job.state != .cancelled {
                job.lastError = .fileChangedSinceQueued(path: path)
                let record = insert(job, .finished(.failed))
                actions.append(.persist(.update(record.job, includingSpec: false)))
                actions.append(.emit(.failed(record.job, reason: .fileChangedSinceQueued(path: path))))
                continue
            }
            if job.state == .queued, job.lastError?.mayHaveArrived == true, !mayResendUnanswered(job) {
                // It was waiting for its server's verdict on keys when its run ended
                // (`+IdempotencyKeys.swift`): without one, it may have arrived.
                let record = insert(job, .finished(.failed))
                actions.append(.persist(.update(record.job, includingSpec: false)))
                actions.append(.emit(.failed(record.job, reason: job.lastError ?? .transferFailed(reason: .interruptedAfterSending))))
                continue
            }
            switch job.state {
            case .queued, .uploading:
                let wasUploading = job.state == .uploading
                let record = holding ? insert(job, .held) : insertWaiting(job)
                if wasUploading { actions.append(.persist(.update(record.job, includingSpec: false))) }
                actions.append(.emit(.queued(record.job)))
            case .failed:
                let record = insert(job, .finished(.failed))
                actions.append(.emit(.failed(record.job, reason: job.lastError ?? .recorded(description: "failed in an earlier run"))))
            case .succeeded:
                insert(job, .finished(.succeeded))
            case .cancelled:
                insert(job, .finished(.cancelled))
            }
        }
        let wasIdleBefore = wasIdle
        settle(&actions)
        if isIdle, wasIdleBefore { actions.append(.emit(.idle(summary))) }
        return actions
    }
}
