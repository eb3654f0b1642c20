import UploadModel

/// What the user does to the queue: pause, limits, cancel, retry, remove, and stopping the program.
extension UploadQueueStateMachine {
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

    /// The user released the held jobs (``restore(_:changedFiles:holding:)``): they wait in ID
    /// order behind the jobs already waiting, and start as far as the limit allows (unless the
    /// queue is paused).
    ///
    /// - Returns: A `queued` event per released job (no longer held), then starts.
    public mutating func releaseHeld() -> [Action] {
        var actions: [Action] = []
        let held = jobs.values.lazy.filter(\.phase.isHeld).map(\.id).sorted()
        for id in held {
            guard var record = jobs[id] else { continue }
            enterWaiting(&record)
            jobs[id] = record
            actions.append(.emit(.queued(record.job)))
        }
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
    /// dropped. Cancelling a succeeded or cancelled job does nothing. A transfer whose body may
    /// have completed (``transportSentWholeBody(_:attempt:)``) is interrupted instead, and its
    /// outcome decides: an answer that came first wins, otherwise the job fails as
    /// `cancelledAfterSending` ("may have arrived").
    ///
    /// - Parameter id: The job.
    /// - Returns: The actions.
    public mutating func cancel(_ id: UploadJobID) -> [Action] {
        var actions: [Action] = []
        cancelOne(id, &actions)
        endCredentialPausesHoldingNothing(&actions)
        settle(&actions)
        return actions
    }

    /// The user cancelled every queued and in-flight job. Failed jobs keep their state and error.
    ///
    /// - Returns: The actions.
    public mutating func cancelAll() -> [Action] {
        var actions: [Action] = []
        let active = jobs.values.lazy.filter { $0.phase.state == .queued || $0.phase.state == .uploading }.map(\.id).sorted()
        for id in active {
            cancelOne(id, &actions)
        }
        endCredentialPausesHoldingNothing(&actions)
        settle(&actions)
        return actions
    }

    /// The user retried a failed or cancelled job, a job waiting for its automatic retry
    /// (which then goes at once) or a held one (which is released alone). Its automatic-retry count starts again from zero.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - refreshedFiles: The job's files re-captured now, to accept files that changed since
    ///     they were queued; nil keeps the recorded ones.
    ///   - request: A spec whose URL, method, headers, fields and connection replace the job's
    ///     (the interface's form as it is now; its files are ignored); nil keeps the job's.
    /// - Returns: The actions.
    public mutating func retry(_ id: UploadJobID, refreshedFiles: [QueuedFile]? = nil,
                               request: UploadJobSpec? = nil) -> [Action] {
        var actions: [Action] = []
        retryOne(id, refreshedFiles: refreshedFiles, request: request, &actions)
        settle(&actions)
        return actions
    }

    /// The user retried every failed and cancelled job — except those that may have arrived
    /// (``UploadJob/mayHaveArrived``) where the server cannot say what it holds, which are
    /// retried one by one, knowingly.
    ///
    /// - Parameter refreshedFiles: Re-captured files per job, as for `retry(_:refreshedFiles:)`.
    /// - Returns: The actions.
    public mutating func retryFailedAndCancelled(refreshedFiles: [UploadJobID: [QueuedFile]] = [:]) -> [Action] {
        var actions: [Action] = []
        for id in retriableTogether() {
            retryOne(id, refreshedFiles: refreshedFiles[id], request: nil, &actions)
        }
        settle(&actions)
        return actions
    }

    /// The user removed a job: an in-flight transfer is aborted, its row deleted.
    ///
    /// - Parameter id: The job.
    /// - Returns: The actions.
    public mutating func remove(_ id: UploadJobID) -> [Action] {
        guard let record = jobs[id] else { return [] }
        var actions: [Action] = []
        leave(record, &actions)
        delete(id)
        actions.append(.persist(.delete([id])))
        actions.append(.emit(.removed(id)))
        endCredentialPausesHoldingNothing(&actions)
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
            delete(id)
            actions.append(.emit(.removed(id)))
        }
        settle(&actions)
        return actions
    }

    /// The program is stopping (Ctrl-C, quit): the queue pauses (`pausedChanged(true)` if it
    /// was running), in-flight transfers are aborted and their jobs, like those backing off,
    /// go back to waiting, so the journal holds them for the next run. The aborted attempts
    /// still count in `attempts` and are recorded as interrupted — except that a job whose
    /// whole body may have been sent (``transportSentWholeBody(_:attempt:)``) and which has no answer yet fails
    /// with `stoppedAfterSending`: the server may have stored it, so it is not sent again unless
    /// the user retries it — or, when the server can settle it (``mayResendUnanswered(_:)``: it
    /// honours the job's key, or knows its resumable upload), waits with that error, so the next
    /// run sends it again by itself and learns from the server whether it arrived.
    ///
    /// - Returns: The actions.
    public mutating func stop() -> [Action] {
        var actions: [Action] = []
        setPaused(true, &actions)
        let affected = jobs.values.lazy
            .filter { record in
                switch record.phase {
                case .uploading, .backingOff: true
                case .waiting, .held, .finished: false
                }
            }
            .map(\.id).sorted()
        for id in affected {
            guard var record = jobs[id] else { continue }
            let flight = leave(record, &actions)
            record.job.progress.bytesPerSecond = nil
            record.job.progress.estimatedTimeRemaining = nil
            if let flight, flight.bodyMayHaveCompleted {
                let error = UploadError.transferFailed(reason: .stoppedAfterSending)
                record.job.lastError = error
                endAttempt(&record, flight, .interrupted, error: error.description)
                // Waits with that error where the server can settle it; fails otherwise.
                if !mayResendUnanswered(record.job) {
                    enter(.finished(.failed), &record)
                    jobs[id] = record
                    actions.append(.persist(.update(record.job, includingSpec: false)))
                    actions.append(.emit(.failed(record.job, reason: error)))
                    continue
                }
            } else if let flight {
                endAttempt(&record, flight, .interrupted)
            }
            enterWaiting(&record)
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.queued(record.job)))
        }
        settle(&actions)
        return actions
    }

    private mutating func cancelOne(_ id: UploadJobID, _ actions: inout [Action]) {
        guard var record = jobs[id] else { return }
        if case .finished(.succeeded) = record.phase { return }
        if case .finished(.cancelled) = record.phase { return }
        if case var .uploading(flight) = record.phase, flight.bodyMayHaveCompleted {
            guard !flight.cancelRequested else { return }
            flight.cancelRequested = true
            record.phase = .uploading(flight)
            jobs[id] = record
            actions.append(.interrupt(id))
            return
        }
        if let flight = leave(record, &actions) { endAttempt(&record, flight, .cancelled) }
        enterCancelled(&record, &actions)
    }

    /// Finishes a job as cancelled and stores it. The caller has left its phase.
    mutating func enterCancelled(_ record: inout JobRecord, _ actions: inout [Action]) {
        enter(.finished(.cancelled), &record)
        record.job.progress.bytesPerSecond = nil
        record.job.progress.estimatedTimeRemaining = nil
        jobs[record.id] = record
        actions.append(.persist(.update(record.job, includingSpec: false)))
        actions.append(.emit(.cancelled(record.job)))
    }

    private mutating func retryOne(_ id: UploadJobID, refreshedFiles: [QueuedFile]?, request: UploadJobSpec?,
                                   _ actions: inout [Action]) {
        guard var record = jobs[id] else { return }
        switch record.phase {
        case .finished(.failed), .finished(.cancelled): break
        case .backingOff: leave(record, &actions)
        case .held: break
        case .waiting, .uploading, .finished(.succeeded): return
        }
        if let request { record.job.spec = request.replacingFiles(record.job.spec.files) }
        if let refreshedFiles { record.job.spec.files = refreshedFiles }
        record.job.automaticRetries = 0
        record.job.progress.bytesSent = 0
        record.job.progress.bytesPerSecond = nil
        record.job.progress.estimatedTimeRemaining = nil
        enterWaiting(&record)
        jobs[id] = record
        actions.append(.persist(.update(record.job, includingSpec: refreshedFiles != nil || request != nil)))
        actions.append(.emit(.queued(record.job)))
    }
}
