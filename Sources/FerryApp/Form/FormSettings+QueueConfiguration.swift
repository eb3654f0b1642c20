import UploadModel

extension FormSettings {
    /// The upload engine's configuration for the interface: the form's concurrency and retries;
    /// with a journal, succeeded jobs drop their response and attempt history from the engine's
    /// queue (the journal keeps them, and the details view reads them back with
    /// ``AppCommand/loadJobDetails(_:)``), so 100,000 finished jobs cost little more than queued
    /// ones. Without a journal the engine is the only place left that has them. An endpoint that
    /// refuses the credentials holds its jobs until the user gives new ones.
    ///
    /// - Parameter journaled: Whether the engine records its jobs in a journal.
    /// - Returns: The configuration.
    public func queueConfiguration(journaled: Bool) -> UploadQueueConfiguration {
        UploadQueueConfiguration(concurrencyLimit: concurrency, retryPolicy: RetryPolicy(maximumRetries: retries),
                                 keepsSucceededJobDetails: !journaled, holdsForNewCredentials: true)
    }
}
