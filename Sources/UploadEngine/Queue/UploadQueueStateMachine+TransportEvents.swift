import FoundationEssentials
import UploadModel
import UploadProtocols

/// What the transport and the clock report: a transfer began, progressed, was answered or
/// failed; a timer fired.
extension UploadQueueStateMachine {
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
        guard var (record, flight) = current(id, attempt) else { return [] }
        flight.startedAt = date
        flight.startInstant = now
        flight.rate.reset()
        flight.rate.record(0, at: now)
        record.phase = .uploading(flight)
        record.job.progress = UploadProgress(bytesSent: 0, totalBytes: totalBytes)
        jobs[id] = record
        return [.emit(.started(record.job))]
    }

    /// The transport wrote more of the body (or, after a re-send or a redirect, started again).
    ///
    /// The caller throttles: `UploadManager` reads its transfers once per `progressInterval`
    /// and reports only a count that changed, so every report is emitted.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - bytesSent: Cumulative body bytes written in this attempt.
    ///   - now: The current instant.
    /// - Returns: A `progressed` event, or nothing.
    public mutating func transportProgressed(_ id: UploadJobID, attempt: Int, bytesSent: Int64, now: SchedulerInstant) -> [Action] {
        guard var (record, flight) = current(id, attempt) else { return [] }
        record.job.progress.bytesSent = max(0, bytesSent)
        flight.rate.record(record.job.progress.bytesSent, at: now)
        updateRate(&record.job.progress, flight.rate)
        record.phase = .uploading(flight)
        jobs[id] = record
        return [.emit(.progressed(record.job))]
    }

    /// The transport may have handed the body's last byte to the server (it asked, and was let,
    /// just before writing it): from now on the server may store the upload, so ending the
    /// attempt without an answer makes the job "may have arrived" rather than a retry.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    /// - Returns: No actions.
    public mutating func transportSentWholeBody(_ id: UploadJobID, attempt: Int) -> [Action] {
        guard var (record, flight) = current(id, attempt) else { return [] }
        flight.bodyMayHaveCompleted = true
        record.phase = .uploading(flight)
        jobs[id] = record
        return []
    }

    /// The server answered. 2xx succeeds; any other status is a failure handled by the retry
    /// policy (408, 429 and 5xx retried, honouring `retryAfter`). A 3xx the transport handed
    /// over was not followed: it fails as the redirect it is (`RedirectPolicy`), not retried.
    /// After a cancel the answer still wins when it came first: a 2xx succeeds, anything else
    /// leaves the job cancelled.
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
        guard case (var record, let flight)? = current(id, attempt) else { return [] }
        var actions: [Action] = []
        leave(record, transferEnded: true, &actions)
        learnKeyVerdict(from: response, of: record, &actions)
        record.job.response = response
        // An answer ends a resumable request's upload on the server: nothing is left to resume.
        record.job.resumption = nil
        if response.isSuccess {
            record.job.lastError = nil
            if let total = record.job.progress.totalBytes { record.job.progress.bytesSent = total }
            endAttempt(&record, flight, .succeeded, status: response.status, now: now)
            enter(.finished(.succeeded), &record)
            record.job.progress.estimatedTimeRemaining = .zero
            noteSuccess(of: record.job.spec)
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.succeeded(record.job)))
            if !configuration.keepsSucceededJobDetails {
                record.job.response = nil
                record.job.attemptHistory = []
            }
            jobs[id] = record
        } else if flight.cancelRequested {
            endAttempt(&record, flight, .cancelled, status: response.status, now: now)
            enterCancelled(&record, &actions)
        } else {
            let error = RedirectPolicy.error(for: response, jobURL: record.job.spec.url,
                                             followsRedirects: record.job.spec.connection.followsRedirects, retryAfter: retryAfter)
            fail(&record, flight, error, now: now, &actions)
        }
        settle(&actions)
        return actions
    }

    /// The attempt failed before a response: a transport error, or the body could not be built
    /// (a local file error, reported before the transfer began). After the body may have
    /// completed (``transportSentWholeBody(_:attempt:)``) the job is not retried: it fails as
    /// "may have arrived" — `cancelledAfterSending` when the user's cancel ended it,
    /// `unansweredAfterSending` for a failure that would otherwise be retried.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - attempt: The attempt.
    ///   - error: What went wrong.
    ///   - now: The current instant.
    /// - Returns: The actions.
    public mutating func transportFailed(_ id: UploadJobID, attempt: Int, error: UploadError, now: SchedulerInstant) -> [Action] {
        guard case (var record, let flight)? = current(id, attempt) else { return [] }
        var actions: [Action] = []
        leave(record, transferEnded: true, &actions)
        var error = error
        var awaitsVerdict = false
        if flight.cancelRequested {
            error = .transferFailed(reason: .cancelledAfterSending)
        } else if flight.bodyMayHaveCompleted, error.isRetryable, case let .transferFailed(reason) = error,
                  !reason.isIncompleteAtServer {
            // Only a failure that would be retried needs saying so; one that is not (a proxy's
            // 407 the transport turned into an error, say) keeps its own words, and one the
            // connection proved incomplete at the server (`incompleteAtServer`) is retried. A job
            // whose server honours its key is retried as it is (`+IdempotencyKeys.swift`).
            switch keyStanding(of: record.job) {
            case .honoured: break
            case .unknown:
                awaitsVerdict = true
                error = .transferFailed(reason: .unansweredAfterSending(reason))
            case .notKeyed, .ignored:
                error = .transferFailed(reason: .unansweredAfterSending(reason))
            }
        }
        fail(&record, flight, error, awaitingKeyVerdict: awaitsVerdict, now: now, &actions)
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
            guard var record = jobs[id], case .backingOff = record.phase else { return [] }
            if awaitingKeyVerdict.removeValue(forKey: id) == record.job.attempts {
                verdictTimerFired(&record, now: now, &actions)
            } else {
                enterWaiting(&record)
            }
            jobs[id] = record
        case let .endpointWait(endpoint):
            endWait(of: endpoint, &actions)
        }
        settle(&actions)
        return actions
    }

    /// Ends a failed attempt: set aside when its endpoint's credentials were refused and the
    /// queue holds for new ones (pausing the endpoint when the answer asks, see
    /// `+Endpoints.swift`), else backing off until its automatic retry when the policy allows
    /// one, otherwise finished as failed. The caller stores nothing more; this stores the record.
    ///
    /// With `awaitingKeyVerdict`, `error` says the answer was lost ("may have arrived"), and the
    /// job backs off while a retry is left, to look again when the timer fires
    /// (`+IdempotencyKeys.swift`).
    private mutating func fail(
        _ record: inout JobRecord, _ flight: AttemptInFlight, _ error: UploadError, awaitingKeyVerdict awaits: Bool = false,
        now: SchedulerInstant, _ actions: inout [Action]
    ) {
        let id = record.id
        record.job.lastError = error
        record.job.progress.bytesPerSecond = nil
        record.job.progress.estimatedTimeRemaining = nil
        let delay = awaits
            ? verdictDelay(of: record.job)
            : retryPolicy(of: record.job).delay(after: error, retriesSoFar: record.job.automaticRetries, jitter: { nextJitter() })
        var status: Int?
        switch error {
        case let .serverRejected(rejected, _, _), let .redirectRefused(rejected, _): status = rejected
        default: break
        }
        endAttempt(&record, flight, .failed, status: status, error: error.description, retryDelay: delay, now: now)
        if pauseEndpoint(of: &record, after: error, now: now, &actions) { return }
        if let delay {
            record.job.automaticRetries += 1
            let deadline = now + delay
            enter(.backingOff(until: deadline), &record)
            if awaits { awaitingKeyVerdict[id] = record.job.attempts }
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.scheduleTimer(.retry(id), at: deadline))
            actions.append(.emit(.retrying(record.job, after: delay)))
        } else {
            enter(.finished(.failed), &record)
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.failed(record.job, reason: error)))
        }
    }

    /// Records the attempt in the job's history. `now` gives the duration; without it (a cancel
    /// or a stop, which carry no time) the attempt has none.
    func endAttempt(
        _ record: inout JobRecord, _ flight: AttemptInFlight, _ outcome: UploadAttempt.Outcome, status: Int? = nil,
        error: String? = nil, retryDelay: Duration? = nil, now: SchedulerInstant? = nil
    ) {
        let began = flight.startInstant
        record.job.recordAttempt(UploadAttempt(
            number: flight.number,
            outcome: outcome,
            startedAt: flight.startedAt,
            duration: began.flatMap { start in now.map { $0 - start } },
            bytesSent: began == nil ? 0 : record.job.progress.bytesSent,
            totalBytes: began == nil ? nil : record.job.progress.totalBytes,
            status: status,
            error: error,
            retryDelay: retryDelay
        ))
    }

    private func updateRate(_ progress: inout UploadProgress, _ estimator: RateEstimator) {
        let rate = estimator.bytesPerSecond
        progress.bytesPerSecond = rate
        if let rate, rate > 0, let total = progress.totalBytes {
            let remaining = Double(max(0, total - progress.bytesSent)) / rate
            progress.estimatedTimeRemaining = .milliseconds(Int64((remaining * 1000).rounded()))
        } else {
            progress.estimatedTimeRemaining = nil
        }
    }
}
