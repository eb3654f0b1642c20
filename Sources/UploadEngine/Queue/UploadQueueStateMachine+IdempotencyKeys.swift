import Multipart
import UploadModel

/// `Idempotency-Key` (``IdempotencyKey``): which jobs carry one, what their servers are known to
/// do with it, and what becomes of a job whose answer was lost after its whole body went out.
///
/// Such a job is sent again, with its key, when its server honours keys (it named a key back in
/// an answer, or `ConnectionOptions.endpointHonoursIdempotencyKeys` says so): a repeat is stored
/// once and answered with the first answer. While the server's verdict is not yet known, the job
/// backs off as a retry would (counted as one) and, when its timer fires, goes again if the
/// verdict came meanwhile, backs off once more while retries are left, and otherwise — or when
/// the server answered without naming the key — ends as "may have arrived", as without keys.
extension UploadQueueStateMachine {
    /// What is known about a job's key and its server.
    enum KeyStanding: Equatable {
        /// The job's requests carry no key of Ferry's.
        case notKeyed
        /// Its server honours keys.
        case honoured
        /// Nothing is known yet.
        case unknown
        /// Its server answered a keyed request without naming the key.
        case ignored
    }

    /// Starts giving jobs keys with `prefix`, taking the URLs in `honoured` as honouring them.
    ///
    /// - Parameters:
    ///   - prefix: The journal's identity, or the run's.
    ///   - honoured: URLs an earlier run saw honour keys (from the journal).
    public mutating func useIdempotencyKeys(prefix: String, honoured: Set<String>) {
        idempotencyKeyPrefix = prefix
        for url in honoured { keyVerdicts[url] = true }
    }

    /// The key a job's form requests carry: none for tus, with `--no-idempotency-key`, when the
    /// user's headers carry an `Idempotency-Key` of their own, or when keys are not in use.
    ///
    /// - Parameters:
    ///   - id: The job's ID.
    ///   - spec: Its spec.
    /// - Returns: The key, or nil.
    public func idempotencyKey(for id: UploadJobID, spec: UploadJobSpec) -> IdempotencyKey? {
        guard let idempotencyKeyPrefix, carriesIdempotencyKey(spec) else { return nil }
        return IdempotencyKey(prefix: idempotencyKeyPrefix, job: id)
    }

    /// Whether a spec's requests carry a key of Ferry's (``idempotencyKey(for:spec:)`` without
    /// making its text).
    func carriesIdempotencyKey(_ spec: UploadJobSpec) -> Bool {
        idempotencyKeyPrefix != nil && spec.tus == nil && spec.connection.sendsIdempotencyKey
            && !spec.headers.contains(where: { HTTPToken.namesEqual($0.name, IdempotencyKeyHeader.name) })
    }

    /// What is known about `job`'s key and its server.
    func keyStanding(of job: UploadJob) -> KeyStanding {
        guard carriesIdempotencyKey(job.spec) else { return .notKeyed }
        if job.spec.connection.endpointHonoursIdempotencyKeys { return .honoured }
        switch keyVerdicts[job.spec.url] {
        case true?: return .honoured
        case false?: return .ignored
        case nil: return .unknown
        }
    }

    /// Whether a job that may have arrived (an earlier run lost its answer) may be sent again
    /// by itself: it carries a key its server honours, or its resumable upload's URL is known, so
    /// the attempt asks the server first (`HEAD`) and sends only what it does not hold — nothing
    /// when it holds it all (`ResumableUploadStateMachine`).
    ///
    /// - Parameter job: The job, as restored.
    /// - Returns: `true` to send it again.
    public func mayResendUnanswered(_ job: UploadJob) -> Bool {
        keyStanding(of: job) == .honoured || job.serverCanSayWhatArrived
    }

    /// Learns the server's verdict from an answer to one of `record`'s keyed requests. Every
    /// answer passes here: once a URL honours keys nothing more is looked at, and a key's text
    /// is made only for an answer that names one.
    mutating func learnKeyVerdict(from response: UploadResponse, of record: JobRecord, _ actions: inout [Action]) {
        let url = record.job.spec.url
        let known = keyVerdicts[url]
        guard known != true, carriesIdempotencyKey(record.job.spec) else { return }
        if response.value(forHeader: IdempotencyKeyHeader.name) != nil,
           idempotencyKey(for: record.id, spec: record.job.spec)?.isEchoed(in: response.headers) == true {
            keyVerdicts[url] = true
            actions.append(.persist(.urlHonoursIdempotencyKeys(url)))
        } else if response.isSuccess, known == nil {
            keyVerdicts[url] = false
        }
    }

    /// The retry policy of a job: the queue's, with the job's own limit.
    func retryPolicy(of job: UploadJob) -> RetryPolicy {
        var policy = configuration.retryPolicy
        if let limit = job.spec.maximumRetries { policy.maximumRetries = max(0, limit) }
        return policy
    }

    /// The delay before a job waiting for its server's verdict looks again, or nil when it has
    /// no automatic retry left.
    mutating func verdictDelay(of job: UploadJob) -> Duration? {
        let policy = retryPolicy(of: job)
        guard job.automaticRetries < policy.maximumRetries else { return nil }
        return policy.backoff(forRetry: job.automaticRetries + 1, jitter: nextJitter())
    }

    /// A retry timer fired for a job that waits for its server's verdict (it has been taken out
    /// of ``awaitingKeyVerdict``): it goes again when the server honours keys, backs off again
    /// while nothing is known and retries are left, and otherwise fails as "may have arrived".
    mutating func verdictTimerFired(_ record: inout JobRecord, now: SchedulerInstant, _ actions: inout [Action]) {
        let standing = keyStanding(of: record.job)
        if standing == .honoured {
            enterWaiting(&record)
            return
        }
        if standing == .unknown, let delay = verdictDelay(of: record.job) {
            record.job.automaticRetries += 1
            let deadline = now + delay
            enter(.backingOff(until: deadline), &record)
            awaitingKeyVerdict[record.id] = record.job.attempts
            actions.append(.scheduleTimer(.retry(record.id), at: deadline))
            return
        }
        enter(.finished(.failed), &record)
        actions.append(.persist(.update(record.job, includingSpec: false)))
        actions.append(.emit(.failed(record.job, reason: record.job.lastError ?? .transferFailed(reason: .stoppedAfterSending))))
    }
}
