import Dispatch
import Multipart

// Attempts: started through the transport, their progress and outcome heard on the root queue.
extension UploadManager {
    /// Starts an attempt: its request is built and handed to the transport on `fileQueue`
    /// (building inspects the files, and a small body is read as the transfer starts), then the
    /// machine hears that the transfer began.
    func startTransfer(_ id: UploadJobID, attempt: Int, spec: UploadJobSpec) {
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
                    request.tusCheckpointWritten = { [weak self] written in
                        guard let self else { return written() }
                        // After the checkpoints reported before (the same serial queue), so their rows are submitted.
                        self.rootQueue.async {
                            guard let journalWriter = self.journalWriter else { return written() }
                            journalWriter.writeNow(then: written)
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
    func closeGate(of id: UploadJobID) {
        guard let transfer = transfers[id], transfer.gate.close() else { return }
        run { $0.transportSentWholeBody(id, attempt: transfer.attempt) }
    }

    /// The journal could not be written (`error`), or can be again (nil). While it cannot,
    /// nothing new starts: the queue pauses and `resume()` is refused with the reason.
    func journalHealthChanged(_ error: UploadError?) {
        let wasFailing = journalProblem != nil
        journalProblem = error
        guard let error, !wasFailing else { return }
        run { machine in machine.pause() + [.emit(.journalFailed(error))] }
    }

    /// With no transfer in flight every mark written so far is about an attempt that has ended
    /// and whose change was submitted: the writer's next batch makes them redundant.
    func absorbMarksIfNothingInFlight() {
        guard transfers.isEmpty, let journal, let journalWriter else { return }
        let used = journal.marks.usedBytes
        if used > 0 { journalWriter.absorbMarks(upTo: used) }
    }

    func progressed(_ id: UploadJobID, attempt: Int, bytesSent: Int64) {
        let now = scheduler.now
        run { $0.transportProgressed(id, attempt: attempt, bytesSent: bytesSent, now: now) }
    }

    /// Tells the machine the bytes a transfer wrote that its progress reports held back.
    func catchUpProgress(_ id: UploadJobID, _ transfer: ActiveTransfer) {
        let written = transfer.task.bytesWritten
        guard written > transfer.relay.latestDelivered else { return }
        progressed(id, attempt: transfer.attempt, bytesSent: written)
    }

    func completed(_ id: UploadJobID, attempt: Int, result: Result<UploadResponse, UploadError>) {
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

    func timerFired(_ key: UploadQueueStateMachine.TimerKey, generation: Int) {
        guard let timer = timers[key], timer.generation == generation else { return }
        timers[key] = nil
        let now = scheduler.now
        run { $0.timerFired(key, now: now) }
    }
}
