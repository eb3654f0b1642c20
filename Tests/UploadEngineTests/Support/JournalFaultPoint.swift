@testable import UploadEngine

/// A step at which the journal writes, as a test injecting a fault sees it
/// (`FaultInjectingJournal`): the queueing insert, a batch of row changes, a write-ahead mark,
/// the writer's probe of a journal that failed.
enum JournalFaultPoint: Sendable, Hashable {
    /// Rows for this many new jobs are about to be inserted (`JournalStore.insertIDs(_:)`).
    case insert(count: Int)
    /// A batch of row changes is about to be applied (`JournalStore.apply(_:)`).
    case apply([JournalChange])
    /// A mark is about to be written (`JournalMarkStore.append(_:)`).
    case mark(JournalMark)
    /// The writer is about to try whether a journal that failed can be written again
    /// (`JournalStore.probe()`).
    case probe
}
