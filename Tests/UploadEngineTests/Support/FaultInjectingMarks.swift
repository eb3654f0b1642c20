@testable import UploadEngine
@testable import UploadJournal

/// A journal's mark log behind a `JournalFaultSwitch`: a mark the switch fails is not written,
/// as on a failed `pwrite`; the rest go to the real file.
final class FaultInjectingMarks: JournalMarkStore {
    /// The real mark log.
    let log: JournalMarkLog
    private let faults: JournalFaultSwitch

    init(_ log: JournalMarkLog, faults: JournalFaultSwitch) {
        self.log = log
        self.faults = faults
    }

    func append(_ mark: JournalMark) -> Bool {
        faults.fails(.mark(mark)) ? false : log.append(mark)
    }

    var usedBytes: Int64 { log.usedBytes }

    func reset(ifUsedIs used: Int64) {
        log.reset(ifUsedIs: used)
    }

    func setReservationFailureHandler(_ handler: @escaping @Sendable (String) -> Void) {
        log.setReservationFailureHandler(handler)
    }
}
