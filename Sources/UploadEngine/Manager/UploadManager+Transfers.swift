import Dispatch
import Multipart
import UploadModel
import UploadProtocols
import FileSystem

// Attempts: started through the transport, their progress and outcome heard on the root queue.
extension UploadManager {
    /// Starts an attempt: its request is built (which inspects the files) and handed to the
    /// transport (which reads a small body at once) on `fileQueue`, or here when
    /// `startsInRootQueueTurn`. The machine hears that the transfer began on the next progress
    /// tick, or with its outcome.
    func startTransfer(_ id: UploadJobID, attempt: Int, spec: UploadJobSpec) {
        let gate = LastByteGate(job: id, attempt: attempt, marks: journal?.marks)
        let task = TransferHandle()
        transfers[id] = ActiveTransfer(attempt: attempt, task: task, gate: gate)
        startProgressTick()
        let configuration = configuration
        let tusCheckpoint = spec.tus == nil ? nil : machine.job(id)?.tus
        let resumption = spec.sendsResumably ? machine.job(id)?.resumption : nil
        let mayBeComplete = machine.job(id)?.lastError?.mayHaveArrived == true
        let idempotencyKey = machine.idempotencyKey(for: id, spec: spec)
        let begin: @Sendable () -> Void = { [formBuilder, transport, scheduler] in
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
                        self.root.async {
                            let now = self.scheduler.now
                            self.run { $0.tusCheckpointed(id, attempt: attempt, checkpoint: checkpoint, now: now) }
                        }
                    }
                    request.tusCheckpointWritten = { [weak self] written in
                        guard let self else { return written() }
                        // After the checkpoints reported before (the same serial queue), so their rows are submitted.
                        self.root.async {
                            guard let journalWriter = self.journalWriter else { return written() }
                            journalWriter.writeNow(then: written)
                        }
                    }
                } else if spec.sendsResumably {
                    request = try formBuilder.resumableRequest(
                        for: spec, jobID: id, attempt: attempt, connectTimeout: configuration.connectTimeout,
                        idleTimeout: configuration.idleTimeout, checkpoint: resumption, idempotencyKey: idempotencyKey,
                        earlierMayBeComplete: mayBeComplete
                    )
                    let body = request.message.body
                    request.resumableUploadNamed = { [weak self] url in
                        guard let self, let checkpoint = ResumableCheckpoint(uploadURL: url, body: body) else { return }
                        // Written through at once: a kill from here on leaves the upload's URL to the next run.
                        self.root.async {
                            self.run { $0.resumptionCheckpointed(id, attempt: attempt, checkpoint: checkpoint) }
                            self.journalWriter?.writeNow {}
                        }
                    }
                    request.resumableUploadResumed = { [weak self] offset in
                        guard let self else { return }
                        self.root.async {
                            let now = self.scheduler.now
                            self.run { $0.resumableUploadResumed(id, attempt: attempt, at: offset, now: now); return [] }
                        }
                    }
                } else {
                    request = try formBuilder.request(
                        for: spec, jobID: id, attempt: attempt,
                        connectTimeout: configuration.connectTimeout, idleTimeout: configuration.idleTimeout,
                        idempotencyKey: idempotencyKey
                    )
                }
            } catch {
                let now = scheduler.now
                self.root.async { self.run { $0.transportFailed(id, attempt: attempt, error: error, now: now) } }
                return
            }
            // A tus job's progress is the file's bytes the server confirmed. The root queue hears
            // of the beginning on its next progress tick, or with the outcome.
            task.began(TransferHandle.Beginning(
                totalBytes: request.tus?.file.size ?? request.message.body.contentLength,
                now: scheduler.now, date: scheduler.currentDate
            ))
            task.started(transport.start(
                request,
                bodyCompleting: { gate.pass() },
                completion: { [weak self] result in
                    self?.hear(result, of: id, attempt: attempt)
                }
            ))
        }
        if startsInRootQueueTurn(spec) { begin() } else { fileQueue.async(execute: begin) }
    }

    /// Whether an attempt of `spec` starts in the root queue's turn rather than on `fileQueue`:
    /// the transport `startsFromAnyThread`, and every file of the job is on a device known to
    /// hold a local file system (`LocalFileSystems`), so inspecting it and reading a small body
    /// cannot wait without end. A small file then costs no hand-off to the file queue's thread
    /// and back, and when the root queue's turn is on the event loop that heard the previous
    /// outcome (`hear`), its whole upload runs on that one thread, as curl's do: behind a
    /// reverse proxy on two shared cores that gives more files a second at less CPU a file
    /// (`Benchmarks/RESULTS.md`). A file on a network or FUSE mount, or on a device
    /// `mountinfo` does not list, an extra file part (`-F name=@path`), and tus and resumable jobs
    /// start on `fileQueue`.
    func startsInRootQueueTurn(_ spec: UploadJobSpec) -> Bool {
        guard transport.startsFromAnyThread, spec.tus == nil, !spec.sendsResumably,
              spec.extraFileParts.isEmpty else { return false }
        return spec.files.allSatisfy { file in
            file.stamp?.identity.map { LocalFileSystems.contains(device: $0.device) } ?? false
        }
    }

    /// Hands a transfer's outcome to the root's turn without ever waiting for it
    /// (`RootTurn.runNowOrHandOver`). Heard on a transport's event loop while the turn is free and
    /// nothing waits for it, the outcome is taken right there: the next job's start is then on its
    /// way — started on that thread when its files are local (`startsInRootQueueTurn`) — without
    /// waking a thread of the root queue's for each file, which behind a slow server cost a
    /// context switch per file. While the turn is taken (a long step, the journal written through
    /// for a success, a test holding it), or on the turn's own thread (a transport answering a
    /// cancel at once), the outcome is handed to the root queue instead, behind the work already
    /// there.
    func hear(_ result: Result<UploadResponse, UploadError>, of id: UploadJobID, attempt: Int) {
        root.runNowOrHandOver { self.completed(id, attempt: attempt, result: result) }
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

    /// Keeps the progress tick running while transfers are in flight: once per
    /// `progressInterval` the root queue reads them (`readTransfers`). This is the one throttle
    /// progress passes; transports only count.
    func startProgressTick() {
        guard progressTick == nil else { return }
        progressTick = root.schedule(scheduler, at: scheduler.now + configuration.progressInterval) { [weak self] in
            guard let self else { return }
            self.progressTick = nil
            self.readTransfers()
            if !self.transfers.isEmpty { self.startProgressTick() }
        }
    }

    /// Stops the progress tick once no transfer is in flight (a tick would find nothing to read).
    func stopProgressTickIfIdle() {
        guard transfers.isEmpty else { return }
        progressTick?.cancel()
        progressTick = nil
    }

    /// Tells the machine what every transfer in flight did since it last heard.
    func readTransfers() {
        for id in transfers.keys.sorted() {
            hearBeginning(of: id)
            hearProgress(of: id)
        }
    }

    /// Tells the machine that a transfer began, if it has not heard yet.
    func hearBeginning(of id: UploadJobID) {
        guard let transfer = transfers[id], let beginning = transfer.task.takeBeginning() else { return }
        run {
            $0.transferBegan(id, attempt: transfer.attempt, totalBytes: beginning.totalBytes,
                             now: beginning.now, date: beginning.date)
        }
    }

    /// Tells the machine how many body bytes a transfer has written, if that changed.
    func hearProgress(of id: UploadJobID) {
        guard let transfer = transfers[id] else { return }
        let written = transfer.task.bytesWritten
        guard written != transfer.reportedBytes else { return }
        transfers[id]?.reportedBytes = written
        let now = scheduler.now
        run { $0.transportProgressed(id, attempt: transfer.attempt, bytesSent: written, now: now) }
    }

    /// Tells the machine how an attempt ended. A 2xx is marked in the journal first
    /// (`successMarked` nil); one that could not be marked has its row written through before the
    /// success is shown — a wait for the journal writer, so it is handed to the root queue when the
    /// turn was taken in passing, on an event loop.
    func completed(
        _ id: UploadJobID, attempt: Int, result: Result<UploadResponse, UploadError>, successMarked: Bool? = nil
    ) {
        guard let transfer = transfers[id], transfer.attempt == attempt else { return }
        var marked = true
        if case let .success(response) = result, response.isSuccess, let journal {
            marked = successMarked ?? journal.marks.append(.succeeded(id))
            if !marked, !root.mayWait {
                root.async { self.completed(id, attempt: attempt, result: result, successMarked: false) }
                return
            }
        }
        hearBeginning(of: id)
        // A failed attempt records what it wrote; a success has sent the whole body.
        if case .failure = result { hearProgress(of: id) }
        transfers[id] = nil
        stopProgressTickIfIdle()
        let now = scheduler.now
        switch result {
        case let .success(response):
            if !marked {
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
