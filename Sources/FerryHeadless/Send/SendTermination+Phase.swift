import Synchronization

extension SendTermination {
    /// How a run of `ferry send` stands with respect to ending; it leaves ``running`` once and
    /// never comes back.
    public enum Phase: UInt8, AtomicRepresentable, Sendable {
        /// Jobs are running; a signal or a broken output may still end the run early.
        case running
        /// A signal or a broken output ends the run early: events are no longer printed.
        case endingEarly
        /// The queue is done and the summary is being written; nothing ends the run early now.
        case finishingNormally
    }
}
