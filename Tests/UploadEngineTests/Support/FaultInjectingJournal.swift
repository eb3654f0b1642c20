@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// A real `UploadJournal` behind a test double of `JournalStore` that fails the writes a test
/// picks (`injectFaults(_:)`) as a full disk would: the queueing insert, a batch of row changes,
/// a write-ahead mark, the writer's probe. Everything else goes to the journal as it is.
final class FaultInjectingJournal: JournalStore {
    /// The real journal underneath (read it to see what was written).
    let journal: UploadJournal
    let marks: FaultInjectingMarks
    private let faults = JournalFaultSwitch()

    init(_ journal: UploadJournal) {
        self.journal = journal
        marks = FaultInjectingMarks(journal.marks, faults: faults)
    }

    /// From now on every write first asks `decide`, and fails with
    /// `journalFailed(reason: .writeFailed)` (a mark: is not written) when it answers true; nil
    /// writes everything.
    ///
    /// - Parameter decide: Whether the write at that step fails.
    func injectFaults(_ decide: (@Sendable (JournalFaultPoint) -> Bool)?) {
        faults.set(decide)
    }

    var path: String { journal.path }

    func insertIDs(_ specs: [UploadJobSpec]) throws(UploadError) -> [UploadJobID] {
        try failIfInjected(.insert(count: specs.count))
        return try journal.insertIDs(specs)
    }

    func apply(_ changes: [JournalChange]) throws(UploadError) {
        try failIfInjected(.apply(changes))
        try journal.apply(changes)
    }

    func probe() throws(UploadError) {
        try failIfInjected(.probe)
        try journal.probe()
    }

    func checkStillInPlace() throws(UploadError) {
        try journal.checkStillInPlace()
    }

    func takeOverRestorableJobs(keepingCancelled: Bool) throws(UploadError) -> [UploadJob] {
        try journal.takeOverRestorableJobs(keepingCancelled: keepingCancelled)
    }

    func idempotencyKeyPrefix() throws(UploadError) -> String {
        try journal.idempotencyKeyPrefix()
    }

    func urlsHonouringIdempotencyKeys() throws(UploadError) -> Set<String> {
        try journal.urlsHonouringIdempotencyKeys()
    }

    private func failIfInjected(_ point: JournalFaultPoint) throws(UploadError) {
        guard faults.fails(point) else { return }
        throw .journalFailed(reason: .writeFailed(message: "injected fault (\(point))"))
    }
}
