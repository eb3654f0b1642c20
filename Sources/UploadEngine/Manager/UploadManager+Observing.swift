import Dispatch
import UploadModel

// Copies of the queue, subscriptions to its events, and waiting for it to go idle; handing the
// gathered events over (root queue).
extension UploadManager {
    // MARK: - Observing

    /// A copy of the whole queue now.
    ///
    /// - Returns: The snapshot.
    public func snapshot() -> UploadQueueSnapshot {
        return root.sync { machine.snapshot }
    }

    /// A copy of one job now.
    ///
    /// - Parameter id: The job.
    /// - Returns: The job, or nil if there is no such job.
    public func job(_ id: UploadJobID) -> UploadJob? {
        return root.sync { machine.job(id) }
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
        root.async {
            // Events gathered before the subscription are not its own.
            self.deliverGatheredEvents()
            self.subscribers[id] = Subscriber(queue: queue, handler: handler)
        }
        return UploadSubscription { [weak self] in
            guard let self else { return }
            self.root.async {
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
            root.async {
                if self.machine.isIdle, self.retriesInPreparation == 0 {
                    continuation.resume(returning: self.machine.summary)
                } else {
                    self.idleWaiters.append(continuation)
                }
            }
        }
    }

    /// Hands every event gathered so far to the subscribers' queues at once (not after the
    /// gathering delay) and returns the queue's summary: what a run that ends early reports last.
    /// **Must not** be called on the root queue, nor on an event loop (it waits for the root queue).
    ///
    /// - Returns: The summary now.
    public func deliverEventsNow() -> UploadSummary {
        return root.sync {
            deliverGatheredEvents()
            return machine.summary
        }
    }

    /// Blocks until the root queue has handled everything submitted so far — attempts being
    /// started on the file queue included — and handed every event to the subscribers' queues
    /// (tests).
    func waitForRootQueue() {
        for _ in 0..<3 {
            root.sync {}
            fileQueue.sync {}
        }
        root.sync { deliverGatheredEvents() }
    }


    /// Gathers the events published by the last actions for the subscribers — handed over within
    /// `eventGathering`, or at once when the queue went idle or a slice's worth has gathered (the
    /// root queue adds a long batch in one go: its events must not all wait in memory) — then
    /// wakes the `waitUntilIdle` callers if it went idle.
    func deliverOutbox() {
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
                root.asyncAfter(deadline: .now() + Self.eventGathering) { self.deliverGatheredEvents() }
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
    func retryPrepared() {
        retriesInPreparation -= 1
        guard retriesInPreparation == 0, machine.isIdle, !idleWaiters.isEmpty else { return }
        deliverGatheredEvents()
        wakeIdleWaiters(with: machine.summary)
    }

    /// Resumes every `waitUntilIdle` caller with `summary`.
    func wakeIdleWaiters(with summary: UploadSummary) {
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume(returning: summary) }
    }

    /// Hands the gathered events to every subscriber, in one batch each.
    func deliverGatheredEvents() {
        assert(root.isHeldHere, "the manager's state outside the root's turn")
        deliveryScheduled = false
        guard !undelivered.isEmpty else { return }
        let events = undelivered
        undelivered = []
        for id in subscribers.keys.sorted() {
            guard let subscriber = subscribers[id] else { continue }
            subscriber.queue.async { subscriber.handler(events) }
        }
    }
}
