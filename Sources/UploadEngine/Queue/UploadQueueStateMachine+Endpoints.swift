import Multipart
import UploadModel

/// Pauses per endpoint (``UploadEndpoint``, a URL's origin): what the server says of all its
/// jobs holds them all, and jobs for other endpoints go on.
///
/// - A 401, or a 403 from an endpoint that accepted an upload before, means its credentials are
///   refused: nothing more is sent there until new ones are given
///   (``resumeEndpoint(_:replacingHeader:)``). With `holdsForNewCredentials` the job that got
///   the answer and every job of the endpoint waits for them (the interface asks); without it
///   the job fails with its answer and the others fail as `credentialsRefused`, unsent. Once the
///   user cancelled or removed all the endpoint's unfinished jobs, the pause ends.
/// - A 429 or 503 with `Retry-After` (no longer than the policy's `maximumRetryAfter`) pauses
///   the endpoint until then; the job itself backs off as the retry policy says.
///
/// Jobs that come up for a paused endpoint are set aside (still waiting, under their ticket)
/// and queued again, in ID order, when the pause ends.
extension UploadQueueStateMachine {
    /// The user gave new credentials for an endpoint that refused them: every job of the
    /// endpoint not under way (waiting, set aside, held, backing off) takes `header` in place
    /// of the headers of that name (or in addition, when it had none), and the endpoint's jobs
    /// start again — unless a `Retry-After` still holds them.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - header: The header to send from now on (`Authorization: Bearer …`, say).
    /// - Returns: Each changed job's row (with its spec), then `endpointResumed` (or the pause
    ///   still in force) and starts; nothing when the endpoint's credentials were not refused.
    public mutating func resumeEndpoint(_ endpoint: UploadEndpoint, replacingHeader header: HeaderField) -> [Action] {
        guard var held = pausedEndpoints[endpoint], held.pause.refusedCredentials != nil else { return [] }
        var actions: [Action] = []
        // A batch shares one spec: the changed one is made once per spec, and shared again.
        var changed: [(old: UploadJobSpec, new: UploadJobSpec)] = []
        let waiting = jobs.values.lazy.filter { record in
            switch record.phase {
            case .waiting, .held, .backingOff: true
            case .uploading, .finished: false
            }
        }.map(\.id).sorted()
        for id in waiting {
            guard var record = jobs[id], self.endpoint(of: record.job.spec) == endpoint else { continue }
            let template = record.job.spec.replacingFiles([])
            let replaced: UploadJobSpec
            if let known = changed.first(where: { $0.old == template }) {
                replaced = known.new
            } else {
                var spec = template
                spec.headers = spec.headers.filter { $0.name.lowercased() != header.name.lowercased() } + [header]
                changed.append((template, spec))
                replaced = spec
            }
            record.job.spec = replaced.replacingFiles(record.job.spec.files)
            jobs[id] = record
            actions.append(.persist(.update(record.job, includingSpec: true)))
        }
        held.pause.refusedCredentials = nil
        pausedEndpoints[endpoint] = held
        endPauseIfOver(endpoint, &actions)
        settle(&actions)
        return actions
    }

    /// The endpoint of a job's URL; nil when the URL cannot make a request.
    mutating func endpoint(of spec: UploadJobSpec) -> UploadEndpoint? {
        if let known = endpointsByURL[spec.url] { return known }
        guard let endpoint = UploadEndpoint(url: spec.url) else { return nil }
        endpointsByURL[spec.url] = endpoint
        return endpoint
    }

    /// Remembers that the job's endpoint accepted an upload.
    mutating func noteSuccess(of spec: UploadJobSpec) {
        if let endpoint = endpoint(of: spec) { endpointsWithSuccess.insert(endpoint) }
    }

    /// Pauses the endpoint of a job whose attempt failed with `error`, when the error says so.
    ///
    /// - Returns: Whether the job was set aside (its credentials refused, and the queue holds
    ///   for new ones); the caller then records nothing more. Otherwise the job fails or backs
    ///   off as usual.
    mutating func pauseEndpoint(
        of record: inout JobRecord, after error: UploadError, now: SchedulerInstant, _ actions: inout [Action]
    ) -> Bool {
        guard case let .serverRejected(status, retryAfter, _) = error, let endpoint = endpoint(of: record.job.spec) else {
            return false
        }
        var held = pausedEndpoints[endpoint] ?? PausedEndpoint()
        let before = held.pause
        let refusesCredentials = status == 401 || (status == 403 && endpointsWithSuccess.contains(endpoint))
        if refusesCredentials {
            held.pause.refusedCredentials = status
            held.pause.credentialsSent = record.job.spec.carriesCredentials
        } else if status == 429 || status == 503, let retryAfter, retryAfter > .zero,
                  retryAfter <= configuration.retryPolicy.maximumRetryAfter {
            let until = now + retryAfter
            guard until > held.pause.wait?.until ?? now else { return false }
            held.pause.wait = EndpointPause.Wait(status: status, delay: retryAfter, until: until)
            actions.append(.scheduleTimer(.endpointWait(endpoint), at: until))
        } else {
            return false
        }
        if held.pause != before { actions.append(.emit(.endpointPaused(endpoint, held.pause))) }
        let setsAside = refusesCredentials && configuration.holdsForNewCredentials
        if setsAside {
            enter(.waiting(ticket: readyQueue.issueTicket()), &record)
            if case let .waiting(ticket) = record.phase { held.setAside.append((record.id, ticket)) }
            jobs[record.id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.queued(record.job)))
        }
        pausedEndpoints[endpoint] = held
        return setsAside
    }

    /// Whether a job that came up to start is held by its endpoint's pause: set aside until the
    /// pause ends, or, credentials refused with no one to give new ones, failed unsent.
    mutating func heldByEndpoint(_ record: inout JobRecord, _ actions: inout [Action]) -> Bool {
        guard let endpoint = endpoint(of: record.job.spec), var held = pausedEndpoints[endpoint] else { return false }
        if let status = held.pause.refusedCredentials, !configuration.holdsForNewCredentials {
            let error = UploadError.credentialsRefused(endpoint: endpoint.description, status: status)
            record.job.lastError = error
            enter(.finished(.failed), &record)
            jobs[record.id] = record
            actions.append(.persist(.update(record.job, includingSpec: false)))
            actions.append(.emit(.failed(record.job, reason: error)))
            return true
        }
        guard case let .waiting(ticket) = record.phase else { return false }
        held.setAside.append((record.id, ticket))
        pausedEndpoints[endpoint] = held
        return true
    }

    /// An endpoint's `Retry-After` pause is over.
    mutating func endWait(of endpoint: UploadEndpoint, _ actions: inout [Action]) {
        guard var held = pausedEndpoints[endpoint], held.pause.wait != nil else { return }
        held.pause.wait = nil
        pausedEndpoints[endpoint] = held
        endPauseIfOver(endpoint, &actions)
    }

    /// Ends the credentials pause of each endpoint none of whose jobs is left unfinished (the user
    /// cancelled or removed them): there is nothing to give new credentials for, and a job sent
    /// there later asks again if they are still refused. A `Retry-After` still in force stays.
    mutating func endCredentialPausesHoldingNothing(_ actions: inout [Action]) {
        let refused = pausedEndpoints.filter { $0.value.pause.refusedCredentials != nil }.keys
        guard !refused.isEmpty else { return }
        let unfinished = jobs.values.filter { record in
            if case .finished = record.phase { return false }
            return true
        }.map(\.job.spec)
        var holding = Set<UploadEndpoint>()
        for spec in unfinished { if let endpoint = endpoint(of: spec) { holding.insert(endpoint) } }
        for endpoint in refused.sorted() where !holding.contains(endpoint) {
            pausedEndpoints[endpoint]?.pause.refusedCredentials = nil
            endPauseIfOver(endpoint, &actions)
        }
    }

    /// Ends an endpoint's pause when nothing holds it any more (its set-aside jobs queued again,
    /// in ID order, and `endpointResumed`); otherwise announces what still does.
    private mutating func endPauseIfOver(_ endpoint: UploadEndpoint, _ actions: inout [Action]) {
        guard let held = pausedEndpoints[endpoint] else { return }
        guard !held.pause.isInForce else {
            actions.append(.emit(.endpointPaused(endpoint, held.pause)))
            return
        }
        pausedEndpoints[endpoint] = nil
        for (id, ticket) in held.setAside.sorted(by: { $0.id < $1.id }) {
            guard var record = jobs[id], case .waiting(ticket) = record.phase else { continue }
            enterWaiting(&record)
            jobs[id] = record
        }
        actions.append(.emit(.endpointResumed(endpoint)))
    }
}
