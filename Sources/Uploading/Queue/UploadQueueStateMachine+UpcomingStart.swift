extension UploadQueueStateMachine {
    /// A job that starts next, as it would start: what ``UploadManager`` builds a request for
    /// ahead.
    struct UpcomingStart: Sendable {
        /// The job.
        let id: UploadJobID
        /// The attempt it would start as.
        let attempt: Int
        /// Its spec.
        let spec: UploadJobSpec
    }

    /// The jobs that start next, in the order they would start: at most `limit` waiting jobs,
    /// none while paused. At most `4 × limit + 64` entries of the ready queue are looked at, so a
    /// queue whose next jobs were cancelled or removed costs little (fewer are returned then).
    ///
    /// - Parameter limit: The most jobs returned.
    /// - Returns: The jobs, each with the attempt it would start as.
    func upcomingStarts(_ limit: Int) -> [UpcomingStart] {
        guard !paused, limit > 0 else { return [] }
        let ids = readyQueue.first(limit, scanningAtMost: 4 * limit + 64) { id, ticket in
            if case .waiting(ticket)? = jobs[id]?.phase { return true }
            return false
        }
        return ids.compactMap { id in
            jobs[id].map { UpcomingStart(id: id, attempt: $0.job.attempts + 1, spec: $0.job.spec) }
        }
    }
}
