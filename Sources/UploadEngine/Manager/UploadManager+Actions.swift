import Dispatch
import UploadModel

// Carrying out the machine's actions (root queue).
extension UploadManager {
    // MARK: - Carrying out actions (root queue)

    /// Queues new jobs slice by slice: each slice's `queued` events are published before the
    /// next slice's jobs are made, so a batch of 100,000 jobs never has all its events and
    /// actions in memory at once. Jobs start after the last slice, as for a short batch.
    func add(_ specs: [UploadJobSpec], ids: [UploadJobID]) {
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

    func run(_ event: (inout UploadQueueStateMachine) -> [UploadQueueStateMachine.Action]) {
        assert(root.isHeldHere, "the manager's state outside the root's turn")
        perform(event(&machine))
    }

    /// Executes actions in order; actions produced while executing (a start that fails at once,
    /// say) are appended and executed by the same loop, never by recursion.
    func perform(_ actions: [UploadQueueStateMachine.Action]) {
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

    func execute(_ action: UploadQueueStateMachine.Action) {
        switch action {
        case let .start(id, attempt, spec):
            startTransfer(id, attempt: attempt, spec: spec)
        case let .abort(id):
            // A job cancelled or removed discards what the server kept for resuming (a tus
            // upload); one stopped or put back keeps it.
            let discards = machine.job(id).map { $0.state == .cancelled } ?? true
            transfers.removeValue(forKey: id)?.task.cancel(discardingUpload: discards)
            stopProgressTickIfIdle()
        case let .interrupt(id):
            transfers[id]?.task.cancel()
        case let .scheduleTimer(key, deadline):
            timers.removeValue(forKey: key)?.timer.cancel()
            timerGeneration += 1
            let generation = timerGeneration
            let timer = root.schedule(scheduler, at: deadline) { [weak self] in
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
                // Only ever on the root queue (`completed`): no event loop waits for the journal.
                assert(root.mayWait, "an event loop would wait for the journal writer")
                journalWriter?.waitUntilWritten()
            }
        case let .emit(event):
            outbox.append(event)
        }
    }
}
