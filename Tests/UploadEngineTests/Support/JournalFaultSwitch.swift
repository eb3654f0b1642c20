import Synchronization

/// Which journal writes fail, as a test decides it from one moment to the next; shared by a
/// `FaultInjectingJournal` and its `FaultInjectingMarks`.
final class JournalFaultSwitch: Sendable {
    private let decide = Mutex<(@Sendable (JournalFaultPoint) -> Bool)?>(nil)

    /// From now on, a write at a point for which `decide` answers true fails; nil lets every
    /// write through.
    ///
    /// - Parameter decide: Whether the write at that point fails.
    func set(_ decide: (@Sendable (JournalFaultPoint) -> Bool)?) {
        self.decide.withLock { $0 = decide }
    }

    /// Whether the write at `point` fails now.
    ///
    /// - Parameter point: The write about to be made.
    /// - Returns: True when it is to fail.
    func fails(_ point: JournalFaultPoint) -> Bool {
        decide.withLock { $0 }?(point) ?? false
    }
}
