/// The task of a request that failed before it started: there is nothing to cancel.
struct FailedTransfer: TransportTask {
    func cancel() {}
}
