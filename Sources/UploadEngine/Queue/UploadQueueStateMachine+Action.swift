import UploadModel

extension UploadQueueStateMachine {
    /// What the caller must do.
    public enum Action: Sendable, Hashable {
        /// Build the job's request from `spec` and start the transfer; report back with `attempt`.
        case start(UploadJobID, attempt: Int, spec: UploadJobSpec)
        /// Abort the job's in-flight transfer now; its completion will be ignored.
        case abort(UploadJobID)
        /// Abort the job's in-flight transfer now but keep listening: its completion (an answer
        /// that came first, or the failure the abort causes) decides the job.
        case interrupt(UploadJobID)
        /// Call `timerFired(_:now:)` with the key at `at`, replacing any timer with that key.
        case scheduleTimer(TimerKey, at: SchedulerInstant)
        /// Cancel the timer with the key.
        case cancelTimer(TimerKey)
        /// Write the change to the journal.
        case persist(JournalChange)
        /// Publish the event.
        case emit(UploadEvent)
    }
}
