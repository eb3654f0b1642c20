import UploadProtocols

/// Whether a transfer of several requests (`TusTransfer`, `ResumableTransfer`) was asked to stop,
/// and whether the stop also removes what the server keeps for resuming: the first request wins.
/// Kept in the transfer's locked state.
struct TransferCancellation: Sendable {
    /// Whether `cancel()` or `cancelDiscardingUpload()` was called.
    private(set) var isRequested = false
    /// Whether the cancel removes the upload from the server (the job was cancelled, not stopped).
    var discardsUpload = false

    /// Records a cancel, unless one was recorded already.
    ///
    /// - Parameter discardingUpload: Whether the upload is to be removed from the server.
    /// - Returns: Whether this was the first.
    mutating func record(discardingUpload: Bool) -> Bool {
        guard !isRequested else { return false }
        isRequested = true
        discardsUpload = discardingUpload
        return true
    }
}

/// A transport task that runs several requests, one in flight at a time: a cancel aborts the one
/// in flight, and the transfer carries on from its end.
protocol MultiRequestTransfer: TransportTask {
    /// Records a cancel (``TransferCancellation/record(discardingUpload:)``).
    ///
    /// - Parameter discardingUpload: Whether the upload is to be removed from the server.
    /// - Returns: The request in flight when this cancel is the first, to abort.
    func recordCancel(discardingUpload: Bool) -> TransferExchange?
}

extension MultiRequestTransfer {
    /// Aborts the request in flight and keeps the upload for resuming (the job was stopped).
    func cancel() {
        recordCancel(discardingUpload: false)?.cancel()
    }

    /// Aborts the request in flight, then removes the upload (`DELETE`; the job was cancelled).
    func cancelDiscardingUpload() {
        recordCancel(discardingUpload: true)?.cancel()
    }
}
