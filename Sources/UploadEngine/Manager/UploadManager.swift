import Dispatch
import FoundationEssentials
import Multipart
import Synchronization
import UploadModel
import UploadProtocols

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
    // @unchecked Sendable: every `var` below is read and written only in the root's turn
    // (`root`), their lock (asserted in debug builds); every `let` is Sendable.
    // Members are internal only for the extensions in UploadManager+*.swift (controls, observing,
    // actions, transfers).

    /// The settings the manager was created with (limits may change later).
    public let configuration: UploadQueueConfiguration
    /// The journal, if the queue is persisted.
    public let journal: (any JournalStore)?

    /// How many new jobs ``enqueue(_:)-([UploadJobSpec])`` turns into queue entries and events at a time.
    static let enqueueSliceSize = 1024

    /// How long events may wait to be handed to the subscribers together: a queue of small files
    /// takes a step every few dozen microseconds, and waking a subscriber's thread for each step
    /// cost a tenth of `ferry send`'s CPU time. No one sees 10 ms (the interface draws at most ten
    /// times a second); the queue going idle is handed over at once.
    static let eventGathering = DispatchTimeInterval.milliseconds(10)

    /// The lock on the state below, taken on the root queue or, by an outcome, on the thread that
    /// heard it; no transport's event loop ever waits for it (`hear`).
    let root = RootTurn(label: "ferry.uploading.root")
    /// Where the file-system work of starting an attempt (inspecting and reading a small body)
    /// and of a user's retry (re-capturing files) runs, in order: a path that blocks (a hung
    /// mount) holds up later starts, never the root queue's pause, cancel or progress. A job whose
    /// files are all on local file systems, which do not hang, starts in the root queue's turn
    /// instead (`startsInRootQueueTurn`).
    let fileQueue = DispatchQueue(label: "ferry.uploading.files")
    let transport: any UploadTransport
    let scheduler: any UploadScheduler
    let formBuilder: FormBuilder
    let journalWriter: JournalWriter?
    let localIDs = Mutex<Int64>(1)
    let subscriberIDs = Mutex<Int>(0)

    var machine: UploadQueueStateMachine
    var transfers: [UploadJobID: ActiveTransfer] = [:]
    var timers: [UploadQueueStateMachine.TimerKey: ActiveTimer] = [:]
    var timerGeneration = 0
    /// The progress tick, while transfers are in flight (`startProgressTick()`).
    var progressTick: (any ScheduledTimer)?
    var subscribers: [Int: Subscriber] = [:]
    /// Why the journal cannot be written, while it cannot: nothing new starts.
    var journalProblem: UploadError?
    /// Jobs answered 2xx whose `succeeded` mark could not be written: their row is written
    /// before the success is shown.
    var successesToWriteNow: Set<UploadJobID> = []
    var idleWaiters: [CheckedContinuation<UploadSummary, Never>] = []
    /// Retries on their way through the file queue (re-capturing their files): the queue is not
    /// idle while one is, though the machine has not heard of it yet.
    var retriesInPreparation = 0
    var pendingActions: [UploadQueueStateMachine.Action] = []
    var isDraining = false
    /// Events published while actions are carried out, delivered together when they are done.
    var outbox: [UploadEvent] = []
    /// Events gathered for the subscribers (`eventGathering`), in order.
    var undelivered: [UploadEvent] = []
    var deliveryScheduled = false

    struct ActiveTransfer {
        let attempt: Int
        let task: TransferHandle
        let gate: LastByteGate
        /// The body bytes the machine last heard of.
        var reportedBytes: Int64 = 0
    }

    struct ActiveTimer {
        let generation: Int
        let timer: any ScheduledTimer
    }

    struct Subscriber {
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
        journal: (any JournalStore)? = nil,
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
        var machine = UploadQueueStateMachine(configuration: configuration, random: random)
        if let journal {
            // Without its identity a journal's jobs carry no key: a key that changed between
            // runs would make a repeat look new.
            if let identity = try? journal.idempotencyKeyPrefix() {
                machine.useIdempotencyKeys(prefix: identity, honoured: (try? journal.urlsHonouringIdempotencyKeys()) ?? [])
            }
        } else {
            machine.useIdempotencyKeys(prefix: UUID().uuidString.lowercased(), honoured: [])
        }
        self.machine = machine
        journalWriter?.setHealthHandler { [weak self] error in
            guard let self else { return }
            self.root.async { self.journalHealthChanged(error) }
        }
        journal?.marks.setReservationFailureHandler { [weak self] reason in
            guard let self else { return }
            self.root.async { self.journalHealthChanged(.journalFailed(reason: .writeFailed(message: reason))) }
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
                root.async { self.journalHealthChanged(error) }
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
        root.async { self.add(specs, ids: ids) }
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
        guard let journal else { return [] }
        return load(try journal.takeOverRestorableJobs(keepingCancelled: keepingCancelled), holding: holdingUnfinished)
    }

    /// Loads the journal's unfinished jobs and the failed jobs that may be sent again by
    /// themselves, queued to send, as `ferry send --resume` does; leaves in the journal, untouched
    /// and not loaded, the failed jobs that wait for the user: a failure retrying cannot mend
    /// (``UploadError/isRetryable``) or a body that may have arrived (``UploadJob/mayHaveArrived``)
    /// unless it carries an `Idempotency-Key` its server honours.
    /// Call once, before queueing new jobs.
    ///
    /// - Returns: The jobs loaded, as the queue now has them, and the jobs left.
    /// - Throws: `UploadError.journalFailed` when the journal cannot be read, or `.inUse`.
    public func restoreForSending() throws(UploadError) -> (restored: [UploadJob], left: [UploadJob]) {
        guard let journal else { return ([], []) }
        var sending: [UploadJob] = []
        var left: [UploadJob] = []
        let machine = root.sync { self.machine }
        for var job in try journal.takeOverRestorableJobs(keepingCancelled: false) {
            if job.state == .failed {
                let resendable = job.mayHaveArrived ? machine.mayResendUnanswered(job) : job.lastError?.isRetryable ?? false
                guard resendable else {
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
    func load(_ jobs: [UploadJob], holding: Bool = false) -> [UploadJob] {
        var changed: [UploadJobID: String] = [:]
        for job in jobs {
            if let file = job.spec.files.first(where: { $0.hasChangedSinceQueued() }) {
                changed[job.id] = file.path
            }
        }
        return root.sync {
            run { $0.restore(jobs, changedFiles: changed, holding: holding) }
            return jobs.compactMap { machine.job($0.id) }
        }
    }
}
