import UploadModel

extension UploadQueueStateMachine {
    /// The timers the machine asks for.
    public enum TimerKey: Hashable, Sendable {
        /// A job's automatic-retry backoff is over.
        case retry(UploadJobID)
        /// An endpoint's `Retry-After` pause is over.
        case endpointWait(UploadEndpoint)
    }
}
