import Dispatch
import Foundation
import Multipart
import Synchronization

/// Works the upload queue: owns an `UploadQueueStateMachine` on one serial root queue
/// (`ferry.uploading.root`), carries out its actions — transfers through an `UploadTransport`,
/// timers through an `UploadScheduler`, rows through the journal — and publishes one stream of
/// `UploadEvent`s to callback subscribers.
///
/// Every public method may be called from any thread except the root queue itself (event
/// handlers never run there). Control methods (`pause`, `cancel`, ...) return at once and take
/// effect in call order; `enqueue` returns the new jobs' IDs, already in the journal.
///
/// Typical use (`ferry send`): subscribe, queue, wait.
/// ```swift
/// let manager = UploadManager(configuration: configuration, transport: transport, journal: journal)
/// let subscription = manager.subscribe(on: events) { batch in
///     for event in batch { print(event) }
/// }
/// try manager.enqueue(specs)
/// let summary = await manager.waitUntilIdle()
/// subscription.cancel()
/// ```
public final class UploadManager: @unchecked Sendable {
    // @unchecked Sendable: every `var` below is read and written only on `rootQueue`, a serial
    // queue that serves as their lock (asserted by `dispatchPrecondition` in debug builds); every
    // `let` is Sendable.

    /// The settings the manager was created with (limits may change later).
    public let configuration: UploadQueueConfiguration
    /// The journal, if the queue is persisted.
    public let journal: UploadJournal?

    /// How many new jobs ``enqueue(_:)-([UploadJobSpec])`` turns into queue entries and events at a time.
    static let enqueueSliceSize = 1024

    /// How long events may wait to be handed to the subscribers together: a queue of small files
    /// takes a step every few dozen microseconds, and waking a subscriber's thread for each step
    /// cost a tenth of `ferry send`'s CPU time. No one sees 10 ms (the interface draws at most ten
    /// times a second); the queue going idle is handed over at once.
    static let eventGathering = DispatchTimeInterval.milliseconds(10)

    let rootQueue = DispatchQueue(label: "ferry.uploading.root")
    /// Where the file-system work of starting an attempt (inspecting and reading a small body)
    /// and of a user's retry (re-capturing files) runs, in order: a path that blocks (a hung
    /// mount) holds up later starts, never the root queue's pause, cancel or progress.
    private let fileQueue = DispatchQueue(label: "ferry.uploading.files")
    private let transport: any UploadTransport
    private let scheduler: any UploadScheduler
    private let formBuilder: FormBuilder
    private let journalWriter: JournalWriter?
    private let localIDs = Mutex<Int64>(1)
    private let subscriberIDs = Mutex<Int>(0)

    private var machine: UploadQueueStateMachine
    private var transfers: [UploadJobID: ActiveTransfer] = [:]
    private var timers: [UploadQueueStateMachine.TimerKey: ActiveTimer] = [:]
    private var timerGeneration = 0
    private var subscribers: [Int: Subscriber] = [:]
    /// Why the journal cannot be written, while it cannot: nothing new starts.
    private var journalProblem: UploadError?
    /// Jobs answered 2xx whose `succeeded` mark could not be written: their row is written
    /// before the success is shown.
    private var successesToWriteNow: Set<UploadJobID> = []
    private var idleWaiters: [CheckedContinuation<UploadSummary, Never>] = []
    /// Retries on their way through the file queue (re-capturing their files): the queue is not
    /// idle while one is, though the machine has not heard of it yet.
    private var retriesInPreparation = 0
    private var pendingActions: [UploadQueueStateMachine.Action] = []
    private var isDraining = false
    /// Events published while actions are carried out, delivered together when they are done.
    private var outbox: [UploadEvent] = []
    /// Events gathered for the subscribers (`eventGathering`), in order.
    private var undelivered: [UploadEvent] = []
    private var deliveryScheduled = false

    private struct ActiveTransfer {
        let attempt: Int
        let task: TransferHandle
        let relay: ProgressRelay
        let gate: LastByteGate
    }

    private struct ActiveTimer {
        let generation: Int
        let timer: any ScheduledTimer
    }

    private struct Subscriber {
        let queue: DispatchQueue
        let handler: @Sendable ([UploadEvent]) -> Void
    }

    /// Creates a manager with an empty, running queue.
    ///
    /// - Parameters:
    ///   - configuration: Limits, retry policy, timeouts, throttling.
    ///   - transport: What sends requests.
    ///   - journal: Where the queue is persisted; nil for none.
    ///   - scheduler: The clock and timers; a `ManualScheduler` in tests.
    ///   - formBuilder: Builds requests from job specs (holds the multipart encoder).
    ///   - random: The source of retry jitter.
    public init(
        configuration: UploadQueueConfiguration = UploadQueueConfiguration(),
        transport: any UploadTransport,
        journal: UploadJournal? = nil,
        scheduler: any UploadScheduler = DispatchUploadScheduler(),
        formBuilder: FormBuilder = FormBuilder(),
        random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.transport = transport
        self.journal = journal
        self.scheduler = scheduler
        self.formBuilder = formBuilder
        self.journalWriter = journal.map { JournalWriter(journal: $0) }
        self.machine = UploadQueueStateMachine(configuration: configuration, random: random)
        journalWriter?.setHealthHandler { [weak self] error in
            guard let self else { return }
            self.rootQueue.async { self.journalHealthChanged(error) }
        }
        journal?.marks.setReservationFailureHandler { [weak self] reason in
            guard let self else { return }
            self.rootQueue.async { self.journalHealthChanged(.journalFailed(reason: .writeFailed(message: reason))) }
        }
    }

    // MARK: - Queueing

    /// Queues jobs. With a journal, their rows are inserted (in one transaction) before this
    /// returns, which assigns their IDs.
    ///
    /// - Parameter specs: The jobs' specs.
    /// - Returns: The new jobs' IDs, in order.
    /// - Throws: `UploadError.journalFailed` when the journal cannot record them; then nothing
    ///   was queued.
    @discardableResult
    public func enqueue(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJobID] {
        let ids: [UploadJobID]
        if let journal {
            do throws(UploadError) {
                ids = try journal.insertIDs(specs)
            } catch {
                // A journal that cannot take the rows cannot be trusted with the queue's next
                // changes either: nothing new starts until it can be written again.
                rootQueue.async { self.journalHealthChanged(error) }
                journalWriter?.reportFailure(error)
                throw error
            }
        } else {
            let first = localIDs.withLock { next in
                defer { next += Int64(specs.count) }
                return next
            }
            ids = (0..<Int64(specs.count)).map { UploadJobID(first + $0) }
        }
        rootQueue.async { self.add(specs, ids: ids) }
        return ids
    }

    /// Queues one job.
    ///
    /// - Parameter spec: The job's spec.
    /// - Returns: Its ID.
    /// - Throws: `UploadError.journalFailed` when the journal cannot record it.
    @discardableResult
    public func enqueue(_ spec: UploadJobSpec) throws(UploadError) -> UploadJobID {
        try enqueue([spec])[0]
    }

    /// Loads the journal's unfinished and failed jobs into the queue (call once, before
    /// queueing new jobs). Interrupted uploads are queued again; a job whose file changed size or
    /// modification time since it was queued is failed with `fileChangedSinceQueued` instead of
    /// being sent. Rows of succeeded jobs are deleted, and of cancelled ones unless kept.
    /// Refused while another process has the journal open
    /// (``UploadJournal/takeOverRestorableJobs(keepingCancelled:)``).
    ///
    /// - Parameters:
    ///   - holdingUnfinished: Whether the unfinished jobs are held until ``releaseHeld()``
    ///     (``UploadJob/isHeld``) instead of waiting to start: jobs queued meanwhile start.
    ///   - keepingCancelled: Whether cancelled jobs come back, cancelled, instead of being deleted.
    /// - Returns: The restored jobs as the queue now has them.
    /// - Throws: `UploadError.journalFailed` when the journal cannot be read, or `.inUse`.
    @discardableResult
    public func restore(holdingUnfinished: Bool = false, keepingCancelled: Bool = false) throws(UploadError) -> [UploadJob] {
        dispatchPrecondition(condition: .notOnQueue(rootQueue))
        guard let journal else { return [] }
        return load(try journal.takeOverRestorableJobs(keepingCancelled: keepingCancelled), holding: holdingUnfinished)
    }

    /// Loads the journal's unfinished jobs and the failed jobs that may be sent again by
    /// themselves, queued to send, as `ferry send --resume` does; leaves in the journal, untouched
    /// and not loaded, the failed jobs that wait for the user: a failure retrying cannot mend
    /// (``UploadError/isRetryable``) or a body that may have arrived (``UploadJob/mayHaveArrived``).
    /// Call once, before queueing new jobs.
    ///
    /// - Returns: The jobs loaded, as the queue now has them, and the jobs left.
    /// - Throws: `UploadError.journalFailed` when the journal cannot be read, or `.inUse`.
    public func restoreForSending() throws(UploadError) -> (restored: [UploadJob], left: [UploadJob]) {
        dispatchPrecondition(condition: .notOnQueue(rootQueue))
        guard let journal else { return ([], []) }
        var sending: [UploadJob] = []
        var left: [UploadJob] = []
        for var job in try journal.takeOverRestorableJobs() {
            if job.state == .failed {
                guard !job.mayHaveArrived, job.lastError?.isRetryable ?? false else {
                    left.append(job)
                    continue
                }
                job.state = .queued
            }
            sending.append(job)
        }
        return (load(sending), left)
    }

    /// Puts restored jobs into the queue; a job whose file changed since it was queued fails.
    private func load(_ jobs: [UploadJob], holding: Bool = false) -> [UploadJob] {
        var changed: [UploadJobID: String] = [:]
        for job in jobs {
            if let file = job.spec.files.first(where: { $0.hasChangedSinceQueued() }) {
                changed[job.id] = file.path
            }
        }
        return rootQueue.sync {
            run { $0.restore(jobs, changedFiles: changed, holding: holding) }
            return jobs.compactMap { machine.job($0.id) }
        }
    }

    // MARK: - Control

    /// Starts nothing new until `resume()`; transfers in flight go on.
    public func pause() {
        rootQueue.async { self.run { $0.pause() } }
    }

    /// Starts queued jobs again — unless the journal cannot be written, which is said again
    /// (`journalFailed`) instead.
    public func resume() {
        rootQueue.async {
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
        rootQueue.async { self.run { $0.releaseHeld() } }
    }

    /// Changes how many jobs may be in flight; lowering it aborts nothing.
    ///
    /// - Parameter limit: The new limit (at least 1).
    public func setConcurrencyLimit(_ limit: Int) {
        rootQueue.async { self.run { $0.setConcurrencyLimit(limit) } }
    }

    /// Changes the retry policy for failures from now on.
    ///
    /// - Parameter policy: The policy.
    public func setRetryPolicy(_ policy: RetryPolicy) {
        rootQueue.async { self.run { $0.setRetryPolicy(policy) } }
    }

    /// Cancels a job; an in-flight request is aborted at once.
    ///
    /// - Parameter id: The job.
    ///
    /// What was written decides: before the body's last byte went out the job is cancelled (and
    /// the byte never goes: the connection is closed); after it, it "may have arrived" — unless
    /// the answer came first, which wins.
    public func cancel(_ id: UploadJobID) {
        rootQueue.async {
            self.closeGate(of: id)
            self.run { $0.cancel(id) }
        }
    }

    /// Cancels every queued and in-flight job; in-flight requests are aborted at once, decided
    /// as ``cancel(_:)`` decides.
    public func cancelAll() {
        rootQueue.async {
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
        rootQueue.async {
            guard let job = self.machine.job(id) else { return }
            self.retriesInPreparation += 1
            self.fileQueue.async {
                let refreshed = Self.refreshedFiles(of: job)
                self.rootQueue.async {
                    self.run { $0.retry(id, refreshedFiles: refreshed, request: request) }
                    self.retryPrepared()
                }
            }
        }
    }

    /// Retries every failed and cancelled job but those that may have arrived, re-capturing
    /// their files as `retry(_:)` does.
    public func retryFailedAndCancelled() {
        rootQueue.async {
            let jobs = self.machine.retriableTogether().compactMap { self.machine.job($0) }
            self.retriesInPreparation += 1
            self.fileQueue.async {
                var refreshed: [UploadJobID: [QueuedFile]] = [:]
                for job in jobs {
                    if let files = Self.refreshedFiles(of: job) { refreshed[job.id] = files }
                }
                let files = refreshed
                self.rootQueue.async {
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
        rootQueue.async { self.run { $0.remove(id) } }
    }

    /// Removes the succeeded jobs.
    public func clearSucceeded() {
        rootQueue.async { self.run { $0.clearSucceeded() } }
    }

    /// Stops for shutdown: pauses, aborts in-flight requests and puts their jobs (and jobs
    /// waiting for a retry) back to queued, so a later `restore()` sends them — but a job whose
    /// whole body was written fails as `stoppedAfterSending` (the server may have it). Follow
    /// with `flushJournal()` before exiting.
    public func stop() {
        rootQueue.async {
            for (id, transfer) in self.transfers {
                self.catchUpProgress(id, transfer)
                self.closeGate(of: id)
            }
            self.run { $0.stop() }
        }
    }

    /// Blocks until every change so far is written to the journal (or has failed to be: the
    /// writer keeps it and tries again). With nothing in flight, the marks written ahead are
    /// then in the rows and are forgotten.
    public func flushJournal() {
        dispatchPrecondition(condition: .notOnQueue(rootQueue))
        rootQueue.sync { absorbMarksIfNothingInFlight() }
        journalWriter?.waitUntilWritten()
    }

    // MARK: - Observing

    /// A copy of the whole queue now.
    ///
    /// - Returns: The snapshot.
    public func snapshot() -> UploadQueueSnapshot {
        dispatchPrecondition(condition: .notOnQueue(rootQueue))
        return rootQueue.sync { machine.snapshot }
    }

    /// A copy of one job now.
    ///
    /// - Parameter id: The job.
    /// - Returns: The job, or nil if there is no such job.
    public func job(_ id: UploadJobID) -> UploadJob? {
        dispatchPrecondition(condition: .notOnQueue(rootQueue))
        return rootQueue.sync { machine.job(id) }
    }

    /// Calls `handler` with every event from now on, in order, on `queue`: in batches, each the
    /// events gathered over at most `eventGathering` (10 ms), so a busy queue costs one hop to
    /// `queue` per batch rather than per event or per step. The `idle` event is handed over at
    /// once: when ``waitUntilIdle()`` returns, every event up to it is on `queue`.
    ///
    /// - Parameters:
    ///   - queue: A serial queue for the handler; nil for a new one (`ferry.uploading.events`).
    ///   - handler: The handler; never called with an empty batch.
    /// - Returns: The subscription; events flow until it is cancelled.
    public func subscribe(
        on queue: DispatchQueue? = nil,
        _ handler: @escaping @Sendable ([UploadEvent]) -> Void
    ) -> UploadSubscription {
        let id = subscriberIDs.withLock { next in
            defer { next += 1 }
            return next
        }
        let queue = queue ?? DispatchQueue(label: "ferry.uploading.events")
        rootQueue.async {
            // Events gathered before the subscription are not its own.
            self.deliverGatheredEvents()
            self.subscribers[id] = Subscriber(queue: queue, handler: handler)
        }
        return UploadSubscription { [weak self] in
            guard let self else { return }
            self.rootQueue.async {
                self.deliverGatheredEvents()
                self.subscribers[id] = nil
            }
        }
    }

    /// Waits until nothing is queued or in flight.
    ///
    /// - Returns: The summary at that moment.
    public func waitUntilIdle() async -> UploadSummary {
        await withCheckedContinuation { continuation in
            rootQueue.async {
                if self.machine.isIdle, self.retriesInPreparation == 0 {
                    continuation.resume(returning: self.machine.summary)
                } else {
                    self.idleWaiters.append(continuation)
                }
            }
        }
    }

    /// Blocks until the root queue has handled everything submitted so far — attempts being
    /// started on the file queue included — and handed every event to the subscribers' queues
    /// (tests).
    func waitForRootQueue() {
        for _ in 0..<3 {
            rootQueue.sync {}
            fileQueue.sync {}
        }
        rootQueue.sync { deliverGatheredEvents() }
    }

    // MARK: - Carrying out actions (root queue)

    /// Queues new jobs slice by slice: each slice's `queued` events are published before the
    /// next slice's jobs are made, so a batch of 100,000 jobs never has all its events and
    /// actions in memory at once. Jobs start after the last slice, as for a short batch.
    private func add(_ specs: [UploadJobSpec], ids: [UploadJobID]) {
        machine.reserveCapacity(forAdding: specs.count)
        var start = 0
        repeat {
            let end = min(start + Self.enqueueSliceSize, specs.count)
            let jobs = (start..<end).map { UploadJob(id: ids[$0], spec: specs[$0]) }
            let isLast = end == specs.count
            run { $0.enqueue(jobs, startingJobs: isLast) }
            start = end
        } while start < specs.count
    }

    private func run(_ event: (inout UploadQueueStateMachine) -> [UploadQueueStateMachine.Action]) {
        dispatchPrecondition(condition: .onQueue(rootQueue))
        perform(event(&machine))
    }

    /// Executes actions in order; actions produced while executing (a start that fails at once,
    /// say) are appended and executed by the same loop, never by recursion.
    private func perform(_ actions: [UploadQueueStateMachine.Action]) {
        guard !isDraining else {
            pendingActions.append(contentsOf: actions)
            return
        }
        pendingActions = actions
        isDraining = true
        var index = 0
        while index < pendingActions.count {
            execute(pendingActions[index])
            index += 1
        }
        pendingActions = []
        isDraining = false
        deliverOutbox()
    }

    private func execute(_ action: UploadQueueStateMachine.Action) {
        switch action {
        case let .start(id, attempt, spec):
            startTransfer(id, attempt: attempt, spec: spec)
        case let .abort(id):
            // A job cancelled or removed discards what the server kept for resuming (a tus
            // upload); one stopped or put back keeps it.
            let discards = machine.job(id).map { $0.state == .cancelled } ?? true
            transfers.removeValue(forKey: id)?.task.cancel(discardingUpload: discards)
        case let .interrupt(id):
            transfers[id]?.task.cancel()
        case let .scheduleTimer(key, deadline):
            timers.removeValue(forKey: key)?.timer.cancel()
            timerGeneration += 1
            let generation = timerGeneration
            let timer = scheduler.schedule(at: deadline, on: rootQueue) { [weak self] in
                self?.timerFired(key, generation: generation)
            }
            timers[key] = ActiveTimer(generation: generation, timer: timer)
        case let .cancelTimer(key):
            timers.removeValue(forKey: key)?.timer.cancel()
        case let .persist(change):
            journalWriter?.submit(change)
            if case let .update(job, _) = change, successesToWriteNow.remove(job.id) != nil {
                // Its success could not be marked ahead (`completed`): the row itself is written
                // now, before the success is shown (its event comes later in these actions).
                // Should the row fail too, the success is still shown (the server has the file)
                // and the attempt's `bodyMayComplete` mark keeps a restore from sending it again.
                journalWriter?.waitUntilWritten()
            }
        case let .emit(event):
            outbox.append(event)
        }
    }

    /// Starts an attempt: its request is built and handed to the transport on `fileQueue`
    /// (building inspects the files, and a small body is read as the transfer starts), then the
    /// machine hears that the transfer began.
    private func startTransfer(_ id: UploadJobID, attempt: Int, spec: UploadJobSpec) {
        let gate = LastByteGate(job: id, attempt: attempt, marks: journal?.marks)
        let task = TransferHandle()
        let relay = ProgressRelay(queue: rootQueue) { [weak self] bytes in
            self?.progressed(id, attempt: attempt, bytesSent: bytes)
        }
        transfers[id] = ActiveTransfer(attempt: attempt, task: task, relay: relay, gate: gate)
        let configuration = configuration
        let tusCheckpoint = spec.tus == nil ? nil : machine.job(id)?.tus
        fileQueue.async { [formBuilder, transport, scheduler] in
            guard !task.isCancelled else { return }
            var request: UploadRequest
            do throws(UploadError) {
                if spec.tus != nil {
                    request = try formBuilder.tusRequest(
                        for: spec, jobID: id, attempt: attempt, connectTimeout: configuration.connectTimeout,
                        idleTimeout: configuration.idleTimeout, checkpoint: tusCheckpoint
                    )
                    request.tusCheckpointed = { [weak self] checkpoint in
                        guard let self else { return }
                        self.rootQueue.async {
                            let now = self.scheduler.now
                            self.run { $0.tusCheckpointed(id, attempt: attempt, checkpoint: checkpoint, now: now) }
                        }
                    }
                } else {
                    request = try formBuilder.request(
                        for: spec, jobID: id, attempt: attempt,
                        connectTimeout: configuration.connectTimeout, idleTimeout: configuration.idleTimeout
                    )
                }
            } catch {
                let now = scheduler.now
                self.rootQueue.async { self.run { $0.transportFailed(id, attempt: attempt, error: error, now: now) } }
                return
            }
            let now = scheduler.now
            let date = scheduler.currentDate
            // A tus job's progress is the file's bytes the server confirmed.
            let total = request.tus?.file.size ?? request.message.body.contentLength
            self.rootQueue.async {
                self.run { $0.transferBegan(id, attempt: attempt, totalBytes: total, now: now, date: date) }
            }
            task.started(transport.start(
                request,
                progress: { bytes in relay.report(bytes) },
                bodyCompleting: { gate.pass() },
                completion: { [weak self] result in
                    guard let self else { return }
                    self.rootQueue.async { self.completed(id, attempt: attempt, result: result) }
                }
            ))
        }
    }

    /// Closes the gate of a job's transfer before it is aborted, and tells the machine when the
    /// body's last byte had already gone.
    private func closeGate(of id: UploadJobID) {
        guard let transfer = transfers[id], transfer.gate.close() else { return }
        run { $0.transportSentWholeBody(id, attempt: transfer.attempt) }
    }

    /// The journal could not be written (`error`), or can be again (nil). While it cannot,
    /// nothing new starts: the queue pauses and `resume()` is refused with the reason.
    private func journalHealthChanged(_ error: UploadError?) {
        let wasFailing = journalProblem != nil
        journalProblem = error
        guard let error, !wasFailing else { return }
        run { machine in machine.pause() + [.emit(.journalFailed(error))] }
    }

    /// With no transfer in flight every mark written so far is about an attempt that has ended
    /// and whose change was submitted: the writer's next batch makes them redundant.
    private func absorbMarksIfNothingInFlight() {
        guard transfers.isEmpty, let journal, let journalWriter else { return }
        let used = journal.marks.usedBytes
        if used > 0 { journalWriter.absorbMarks(upTo: used) }
    }

    private func progressed(_ id: UploadJobID, attempt: Int, bytesSent: Int64) {
        let now = scheduler.now
        run { $0.transportProgressed(id, attempt: attempt, bytesSent: bytesSent, now: now) }
    }

    /// Tells the machine the bytes a transfer wrote that its progress reports held back.
    private func catchUpProgress(_ id: UploadJobID, _ transfer: ActiveTransfer) {
        let written = transfer.task.bytesWritten
        guard written > transfer.relay.latestDelivered else { return }
        progressed(id, attempt: transfer.attempt, bytesSent: written)
    }

    private func completed(_ id: UploadJobID, attempt: Int, result: Result<UploadResponse, UploadError>) {
        guard let transfer = transfers[id], transfer.attempt == attempt else { return }
        if case .failure = result { catchUpProgress(id, transfer) }
        transfers[id] = nil
        let now = scheduler.now
        switch result {
        case let .success(response):
            if response.isSuccess, let journal, !journal.marks.append(.succeeded(id)) {
                // Written ahead, the success is known before it is shown; unmarked, its row is
                // written before (`execute(.persist)`) and, the journal failing, nothing new
                // starts — paused before the success below could start the next job.
                successesToWriteNow.insert(id)
                let error = UploadError.journalFailed(reason: .writeFailed(
                    message: "the success of job \(id) could not be marked in the journal"))
                journalHealthChanged(error)
                journalWriter?.reportFailure(error)
            }
            let retryAfter = response.retryAfter(relativeTo: scheduler.currentDate)
            run { $0.transportCompleted(id, attempt: attempt, response: response, retryAfter: retryAfter, now: now) }
        case var .failure(error):
            switch transfer.gate.current {
            case .passed:
                run { $0.transportSentWholeBody(id, attempt: attempt) }
            case .unrecorded:
                error = .journalFailed(reason: .writeFailed(
                    message: "the body's last byte was held back because the journal could not record it"))
                // Nothing new starts (before the failure below could start the next job).
                journalHealthChanged(error)
                journalWriter?.reportFailure(error)
            case .open, .closed:
                break
            }
            run { $0.transportFailed(id, attempt: attempt, error: error, now: now) }
        }
    }

    private func timerFired(_ key: UploadQueueStateMachine.TimerKey, generation: Int) {
        guard let timer = timers[key], timer.generation == generation else { return }
        timers[key] = nil
        let now = scheduler.now
        run { $0.timerFired(key, now: now) }
    }

    /// Gathers the events published by the last actions for the subscribers — handed over within
    /// `eventGathering`, or at once when the queue went idle or a slice's worth has gathered (the
    /// root queue adds a long batch in one go: its events must not all wait in memory) — then
    /// wakes the `waitUntilIdle` callers if it went idle.
    private func deliverOutbox() {
        guard !outbox.isEmpty else { return }
        let events = outbox
        outbox = []
        undelivered.append(contentsOf: events)
        let idle = events.lazy.compactMap { event -> UploadSummary? in
            if case let .idle(summary) = event { return summary }
            return nil
        }.first
        guard let idle else {
            if undelivered.count >= Self.enqueueSliceSize {
                // A long batch's events go out slice by slice, never all at once.
                deliverGatheredEvents()
            } else if !deliveryScheduled {
                deliveryScheduled = true
                rootQueue.asyncAfter(deadline: .now() + Self.eventGathering) { self.deliverGatheredEvents() }
            }
            return
        }
        absorbMarksIfNothingInFlight()
        // Before the waiters wake: what they then wait for on a subscriber's queue is there.
        deliverGatheredEvents()
        guard retriesInPreparation == 0 else { return }
        wakeIdleWaiters(with: idle)
    }

    /// A retry came back from the file queue and was handed to the machine: wakes the idle
    /// waiters if that left the queue idle (a retry refused, or nothing left to retry).
    private func retryPrepared() {
        retriesInPreparation -= 1
        guard retriesInPreparation == 0, machine.isIdle, !idleWaiters.isEmpty else { return }
        deliverGatheredEvents()
        wakeIdleWaiters(with: machine.summary)
    }

    /// Resumes every `waitUntilIdle` caller with `summary`.
    private func wakeIdleWaiters(with summary: UploadSummary) {
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume(returning: summary) }
    }

    /// Hands the gathered events to every subscriber, in one batch each.
    private func deliverGatheredEvents() {
        dispatchPrecondition(condition: .onQueue(rootQueue))
        deliveryScheduled = false
        guard !undelivered.isEmpty else { return }
        let events = undelivered
        undelivered = []
        for id in subscribers.keys.sorted() {
            guard let subscriber = subscribers[id] else { continue }
            subscriber.queue.async { subscriber.handler(events) }
        }
    }

    /// The job's files re-captured now, or nil when none changed since they were recorded.
    private static func refreshedFiles(of job: UploadJob) -> [QueuedFile]? {
        let files = job.spec.files.map { $0.recaptured() }
        return files == job.spec.files ? nil : files
    }
}
