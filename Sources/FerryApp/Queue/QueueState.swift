import TerminalUI
import UploadModel

/// The queue pane's state: the jobs in the order they were queued, as the upload events
/// describe them, the filter and the jobs it shows, the cursor, and the job whose details are
/// open.
public struct QueueState: Hashable, Sendable {
    /// The jobs' rows by ID (a compact table of small rows: the queue may hold 100,000 of them).
    public private(set) var rows = JobTable<QueueRow>()
    /// The job IDs in queue order.
    public private(set) var order: [UploadJobID] = []
    /// The pane's filter (``QueueFilter``); empty shows every job.
    public private(set) var filter = QueueFilter()
    /// The filter being typed, while `/` is active.
    public var filterEditor: LineEditor?
    /// The IDs of the jobs the filter shows, in queue order; nil without a filter.
    private var filtered: [UploadJobID]?
    /// The cursor over ``shown``.
    public var scroll = ListScroll()
    /// The job whose details view is open, whole, as its row, the engine's answer to
    /// ``AppCommand/loadJobDetails(_:)`` or its latest event describes it.
    public private(set) var detailsJob: UploadJob?
    /// Whether the details view waits for ``AppCommand/loadJobDetails(_:)``'s answer: until it
    /// comes, a succeeded job's details lack its attempts and response.
    public private(set) var isLoadingDetails = false
    /// Why the open details view's attempts and response could not be read, if they could not.
    public private(set) var detailsProblem: String?
    /// Wrapped lines of the details view scrolled past.
    public var detailsScroll = 0
    /// Whether the engine's queue is paused, as its last `pausedChanged` event (or the restore)
    /// said.
    public var isPaused = false
    /// The endpoints paused now (refused credentials, a `Retry-After`), as the engine's
    /// `endpointPaused` and `endpointResumed` events said.
    public var endpointPauses: [UploadEndpoint: EndpointPause] = [:]
    /// The last error the journal reported, if any.
    public var journalError: String?
    /// When the jobs in flight last moved a byte.
    public private(set) var progressWatch = ProgressWatch()
    /// Jobs the user removed whose `removed` event has not come yet: their rows are gone at
    /// once (the next `d` acts on the next row), and their late events do not bring them back.
    public private(set) var removing: Set<UploadJobID> = []
    /// Jobs retried with the form as it was then instead of the request they were queued with,
    /// and what differed (`URL`, `headers`): their details say so.
    public private(set) var retriedWithForm: [UploadJobID: [String]] = [:]

    /// Creates an empty queue.
    public init() {}

    /// The IDs of the jobs shown, in queue order: those the filter lets through (all of
    /// ``order`` without one). The cursor, `f`, and the keys that act on many jobs act on these.
    public var shown: [UploadJobID] { filtered ?? order }

    /// Whether a filter hides jobs that do not match it.
    public var isFiltered: Bool { filtered != nil }

    /// The job under the cursor, if any, as its row knows it.
    public var current: UploadJob? {
        scroll.selection.flatMap { rows[shown[$0]]?.job }
    }

    /// The rows shown, as the filter lets them through.
    ///
    /// - Parameter isIncluded: Which rows to take.
    /// - Returns: Their IDs, in queue order.
    public func shownIDs(where isIncluded: (QueueRow) -> Bool) -> [UploadJobID] {
        shown.filter { rows[$0].map(isIncluded) ?? false }
    }

    /// Sets the filter (from the filter editor), keeping the cursor on its job when the filter
    /// still shows it.
    ///
    /// - Parameter text: The filter text (``QueueFilter``).
    public mutating func setFilter(_ text: String) {
        let kept = current?.id
        filter = QueueFilter(text)
        filtered = filter.isEmpty ? nil : order.filter { rows[$0].map(filter.matches) ?? false }
        scroll.setCount(shown.count)
        scroll.select(kept.flatMap { Self.index(of: $0, in: shown) } ?? 0)
    }

    /// The ID of the job whose details view is open, if any.
    public var detailsJobID: UploadJobID? { detailsJob?.id }

    /// Counts of jobs by state, and bytes; kept up to date as jobs change.
    public private(set) var summary = UploadSummary()
    /// How many queued jobs are held until the user starts them (``UploadJob/isHeld``).
    public private(set) var heldCount = 0

    /// Whether any job is queued or uploading.
    public var hasActiveJobs: Bool { summary.queued + summary.uploading > 0 }

    /// Records a job as the latest event describes it (appending new jobs).
    ///
    /// - Parameters:
    ///   - job: The job.
    ///   - now: The clock's latest reading, to time its progress.
    public mutating func upsert(_ job: UploadJob, at now: SchedulerInstant? = nil) {
        guard !removing.contains(job.id) else { return }
        progressWatch.record(job, at: now)
        let row = QueueRow(job)
        if let old = rows[job.id] {
            summary.account(old.job, sign: -1)
            if old.isHeld { heldCount -= 1 }
            if filter.namesStates, filter.matches(old) != filter.matches(row) { refilter(job.id, shows: filter.matches(row)) }
        } else {
            order.append(job.id)
            if filtered != nil, filter.matches(row) { filtered?.append(job.id) }
            scroll.setCount(shown.count)
        }
        rows[job.id] = row
        summary.account(job, sign: 1)
        if job.isHeld { heldCount += 1 }
        if job.id == detailsJob?.id {
            detailsJob = job
            isLoadingDetails = false
            detailsProblem = nil
        }
    }

    /// Opens the details view of a job.
    ///
    /// - Parameter id: The job.
    /// - Returns: Whether its details must be loaded (``AppCommand/loadJobDetails(_:)``): its row
    ///   does not keep all of them.
    public mutating func openDetails(_ id: UploadJobID) -> Bool {
        guard let row = rows[id] else { return false }
        detailsJob = row.job
        detailsScroll = 0
        detailsProblem = nil
        isLoadingDetails = row.lacksDetails
        return isLoadingDetails
    }

    /// Takes the details the engine answered with, if that job's details view is still open
    /// and waits for them.
    ///
    /// - Parameter job: The whole job.
    public mutating func detailsLoaded(_ job: UploadJob) {
        guard isLoadingDetails, job.id == detailsJob?.id else { return }
        detailsJob = job
        isLoadingDetails = false
    }

    /// Stops waiting for details the engine could not read, if that job's details view is still
    /// open and waits for them: the view says why instead of "reading…".
    ///
    /// - Parameters:
    ///   - id: The job.
    ///   - reason: Why, in words.
    public mutating func detailsUnavailable(_ id: UploadJobID, reason: String) {
        guard isLoadingDetails, id == detailsJob?.id else { return }
        isLoadingDetails = false
        detailsProblem = reason
    }

    /// Closes the details view.
    public mutating func closeDetails() {
        detailsJob = nil
        detailsScroll = 0
        isLoadingDetails = false
        detailsProblem = nil
    }

    /// Makes room for `count` more jobs at once (a long batch was just queued), so the table
    /// does not grow step by step while their events arrive.
    ///
    /// - Parameter count: How many jobs are about to arrive.
    public mutating func reserveCapacity(forAdding count: Int) {
        rows.reserveCapacity(adding: count)
        let needed = order.count + count
        if needed > order.capacity { order.reserveCapacity(max(needed, order.capacity * 2)) }
    }

    /// Notes jobs retried with the form's request as it is now (see ``retriedWithForm``).
    ///
    /// - Parameters:
    ///   - ids: The jobs.
    ///   - changes: What differed from the request they were queued with, in words.
    public mutating func noteRetriedWithForm(_ ids: [UploadJobID], changes: [String]) {
        for id in ids { retriedWithForm[id] = changes }
    }

    /// Forgets jobs the user removed before the engine says so (see ``removing``).
    ///
    /// - Parameter ids: The jobs.
    public mutating func removeAhead(_ ids: [UploadJobID]) {
        forget(ids)
        removing.formUnion(ids)
    }

    /// Forgets jobs the engine removed, in one pass over the queue's order however many they are.
    ///
    /// - Parameter ids: The jobs.
    public mutating func remove(_ ids: [UploadJobID]) {
        if !removing.isEmpty { removing.subtract(ids) }
        forget(ids)
    }

    private mutating func forget(_ ids: [UploadJobID]) {
        var removed = Set<UploadJobID>(minimumCapacity: ids.count)
        for id in ids {
            guard let old = rows.removeValue(forKey: id) else { continue }
            progressWatch.forget(id)
            retriedWithForm[id] = nil
            summary.account(old.job, sign: -1)
            if old.isHeld { heldCount -= 1 }
            removed.insert(id)
        }
        guard !removed.isEmpty else { return }
        order.removeAll { removed.contains($0) }
        filtered?.removeAll { removed.contains($0) }
        scroll.setCount(shown.count)
        if let open = detailsJobID, removed.contains(open) { closeDetails() }
    }

    /// Lets a job whose state changed into the filtered list, or out of it, keeping the cursor
    /// on the job it was on (on the next one when that job left).
    private mutating func refilter(_ id: UploadJobID, shows: Bool) {
        guard var list = filtered else { return }
        filtered = nil
        let cursor = scroll.cursor
        if shows {
            let index = Self.insertionIndex(of: id, in: list)
            list.insert(id, at: index)
            scroll.setCount(list.count)
            if index <= cursor, list.count > 1 { scroll.select(cursor + 1) }
        } else if let index = Self.index(of: id, in: list) {
            list.remove(at: index)
            scroll.setCount(list.count)
            if index < cursor { scroll.select(cursor - 1) }
        }
        filtered = list
    }

    /// Where a job's ID goes in a list in queue order. Jobs are queued in ID order (the
    /// journal's IDs only grow), so the list is sorted by ID and searched by halves.
    private static func insertionIndex(of id: UploadJobID, in list: [UploadJobID]) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A job's index in a list in queue order (searched by halves, then one by one should the
    /// list not be in ID order).
    private static func index(of id: UploadJobID, in list: [UploadJobID]) -> Int? {
        let index = insertionIndex(of: id, in: list)
        if index < list.count, list[index] == id { return index }
        return list.firstIndex(of: id)
    }
}
