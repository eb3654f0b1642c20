/// A step at which the journal writes, as a fault injected by a test sees it
/// (``UploadJournal/injectFaults(_:)``): the queueing insert, a batch of row changes, a
/// write-ahead mark, the writer's probe of a journal that failed.
enum JournalFaultPoint: Sendable, Hashable {
    /// Rows for this many new jobs are about to be inserted (`UploadJournal.insertIDs(_:)`).
    case insert(count: Int)
    /// A batch of row changes is about to be applied (`UploadJournal.apply(_:)`; empty when the
    /// writer probes a journal that failed).
    case apply([JournalChange])
    /// A mark is about to be written (`JournalMarkLog.append(_:)`).
    case mark(JournalMark)
    /// The writer is about to try whether a journal that failed can be written again
    /// (`UploadJournal.probe()`).
    case probe
}
