import Dispatch
import Multipart
import UploadModel

// Pausing, resuming, limits, cancelling, retrying, removing and stopping: each returns at once and
// takes effect on the root queue in call order.
extension UploadManager {
    // MARK: - Control

    /// Starts nothing new until `resume()`; transfers in flight go on.
    public func pause() {
        root.async { self.run { $0.pause() } }
    }

    /// Starts queued jobs again — unless the journal cannot be written, which is said again
    /// (`journalFailed`) instead.
    public func resume() {
        root.async {
            if let problem = self.journalProblem {
                self.perform([.emit(.journalFailed(problem))])
                return
            }
            self.run { $0.resume() }
        }
    }

    /// Releases the jobs ``restore(holdingUnfinished:keepingCancelled:)`` held: they start as
    /// the limit allows (unless the queue is paused).
    public func releaseHeld() {
        root.async { self.run { $0.releaseHeld() } }
    }

    /// Gives new credentials for an endpoint that refused them (``EndpointPause/refusedCredentials``,
    /// with `holdsForNewCredentials`): its jobs not under way take `header` and start again.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - header: The header that replaces the ones of its name.
    public func resumeEndpoint(_ endpoint: UploadEndpoint, replacingHeader header: HeaderField) {
        root.async { self.run { $0.resumeEndpoint(endpoint, replacingHeader: header) } }
    }

    /// Changes how many jobs may be in flight; lowering it aborts nothing.
    ///
    /// - Parameter limit: The new limit (at least 1).
    public func setConcurrencyLimit(_ limit: Int) {
        root.async { self.run { $0.setConcurrencyLimit(limit) } }
    }

    /// Changes the retry policy for failures from now on.
    ///
    /// - Parameter policy: The policy.
    public func setRetryPolicy(_ policy: RetryPolicy) {
        root.async { self.run { $0.setRetryPolicy(policy) } }
    }

    /// Cancels a job; an in-flight request is aborted at once.
    ///
    /// - Parameter id: The job.
    ///
    /// What was written decides: before the body's last byte went out the job is cancelled (and
    /// the byte never goes: the connection is closed); after it, it "may have arrived" — unless
    /// the answer came first, which wins.
    public func cancel(_ id: UploadJobID) {
        root.async {
            // The attempt's history keeps when it began and what it wrote.
            self.hearBeginning(of: id)
            self.hearProgress(of: id)
            self.closeGate(of: id)
            self.run { $0.cancel(id) }
        }
    }

    /// Cancels every queued and in-flight job; in-flight requests are aborted at once, decided
    /// as ``cancel(_:)`` decides.
    public func cancelAll() {
        root.async {
            self.readTransfers()
            for id in self.transfers.keys.sorted() { self.closeGate(of: id) }
            self.run { $0.cancelAll() }
        }
    }

    /// Retries a failed or cancelled job, or a job waiting for its automatic retry, now. Its
    /// files are re-captured: the user's retry accepts files that changed since they were queued.
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - request: A spec whose URL, method, headers, fields and connection replace the job's
    ///     (the interface's form as it is now); nil sends the job as it was queued.
    public func retry(_ id: UploadJobID, request: UploadJobSpec? = nil) {
        root.async {
            guard let job = self.machine.job(id) else { return }
            self.retriesInPreparation += 1
            self.fileQueue.async {
                let refreshed = Self.refreshedFiles(of: job)
                self.root.async {
                    self.run { $0.retry(id, refreshedFiles: refreshed, request: request) }
                    self.retryPrepared()
                }
            }
        }
    }

    /// Retries every failed and cancelled job but those that may have arrived, re-capturing
    /// their files as `retry(_:)` does.
    public func retryFailedAndCancelled() {
        root.async {
            let jobs = self.machine.retriableTogether().compactMap { self.machine.job($0) }
            self.retriesInPreparation += 1
            self.fileQueue.async {
                var refreshed: [UploadJobID: [QueuedFile]] = [:]
                for job in jobs {
                    if let files = Self.refreshedFiles(of: job) { refreshed[job.id] = files }
                }
                let files = refreshed
                self.root.async {
                    self.run { $0.retryFailedAndCancelled(refreshedFiles: files) }
                    self.retryPrepared()
                }
            }
        }
    }

    /// Removes a job (aborting it if in flight) and its journal row.
    ///
    /// - Parameter id: The job.
    public func remove(_ id: UploadJobID) {
        root.async { self.run { $0.remove(id) } }
    }

    /// Removes the succeeded jobs.
    public func clearSucceeded() {
        root.async { self.run { $0.clearSucceeded() } }
    }

    /// Stops for shutdown: pauses, aborts in-flight requests and puts their jobs (and jobs
    /// waiting for a retry) back to queued, so a later `restore()` sends them — but a job whose
    /// whole body was written fails as `stoppedAfterSending` (the server may have it). Follow
    /// with `flushJournal()` before exiting.
    public func stop() {
        root.async {
            self.readTransfers()
            for id in self.transfers.keys.sorted() { self.closeGate(of: id) }
            self.run { $0.stop() }
        }
    }

    /// Blocks until every change so far is written to the journal (or has failed to be: the
    /// writer keeps it and tries again). With nothing in flight, the marks written ahead are
    /// then in the rows and are forgotten.
    public func flushJournal() {
        root.sync { absorbMarksIfNothingInFlight() }
        journalWriter?.waitUntilWritten()
    }

    /// The job's files re-captured now, or nil when none changed since they were recorded.
    static func refreshedFiles(of job: UploadJob) -> [QueuedFile]? {
        let files = job.spec.files.map { $0.recaptured() }
        return files == job.spec.files ? nil : files
    }
}
