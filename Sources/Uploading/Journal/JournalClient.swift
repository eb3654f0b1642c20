/// Which command a journal row belongs to. `ferry send --resume` and the interface each take
/// up only their own unfinished jobs: neither fills its queue with the other's.
public enum JournalClient: String, Sendable, Hashable {
    /// `ferry send`.
    case send
    /// The interactive interface.
    case interface
}
