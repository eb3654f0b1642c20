import Dispatch
import Multipart

// Requests built ahead for the jobs that start next (root queue; the building on the file queue).
extension UploadManager {
    /// The largest body a prepared request holds in memory: a small file's request then reads no
    /// file when it is sent. Larger bodies are read as they are sent, on the transport's queue.
    static let preparedBodyInMemoryLimit: Int64 = 64 * 1024

    /// Builds ahead, on the file queue, the requests of the jobs that start next — as many as
    /// the concurrency limit — so that when a slot frees, the root queue hands the next job's
    /// request to the transport at once. A small upload's start then costs no hop through the
    /// file queue (a hop that was on every small file's path from one answer to the next
    /// request), and inspecting and reading its file overlap the uploads in flight. A small body
    /// is read into memory, checked as streaming checks it, so no file is read on the root queue.
    ///
    /// A prepared request is a head start only: it is used when its job starts as the attempt
    /// and with the spec it was built for (``startTransfer(_:attempt:spec:)``), and dropped when
    /// the job is no longer among the next, the queue is paused or the journal cannot be written.
    /// One that could not be built (a file missing, changed, unreadable) is not kept: the job's
    /// start builds it again and fails with the reason.
    func prepareUpcomingStarts() {
        let upcoming = journalProblem == nil ? machine.upcomingStarts(machine.concurrencyLimit) : []
        if !preparedStarts.isEmpty {
            preparedStarts = preparedStarts.filter { id, _ in upcoming.contains { $0.id == id } }
        }
        let wanted = upcoming.filter { preparedStarts[$0.id] == nil && !preparingStarts.contains($0.id) }
        guard !wanted.isEmpty else { return }
        for start in wanted { preparingStarts.insert(start.id) }
        let configuration = configuration
        fileQueue.async { [formBuilder] in
            let built = wanted.map { start in
                (start, Self.preparedRequest(for: start, formBuilder: formBuilder, configuration: configuration))
            }
            self.rootQueue.async {
                for (start, request) in built {
                    self.preparingStarts.remove(start.id)
                    guard let request else { continue }
                    self.preparedStarts[start.id] = PreparedStart(attempt: start.attempt, spec: start.spec, request: request)
                }
            }
        }
    }

    /// Builds a job's request ahead (file queue), its body in memory when small.
    ///
    /// - Returns: The request, or nil when it cannot be built now.
    private static func preparedRequest(
        for start: UploadQueueStateMachine.UpcomingStart,
        formBuilder: FormBuilder,
        configuration: UploadQueueConfiguration
    ) -> UploadRequest? {
        guard var request = try? formBuilder.request(
            for: start.spec, jobID: start.id, attempt: start.attempt,
            connectTimeout: configuration.connectTimeout, idleTimeout: configuration.idleTimeout
        ) else { return nil }
        if request.message.body.contentLength <= preparedBodyInMemoryLimit {
            guard let body = try? request.message.body.readIntoMemory() else { return nil }
            request.message.body = body
        }
        return request
    }
}
