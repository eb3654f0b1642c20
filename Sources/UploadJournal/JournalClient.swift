/// Which command a journal row belongs to. `ferry send --resume` and the interface each take
/// up only their own unfinished jobs: neither fills its queue with the other's.
public enum JournalClient: String, Sendable, Hashable {
    /// `ferry send`.
    case send
    /// The interactive interface.
    case interface

    /// Whether a succeeded job keeps its row until the next restore: the interface reads a
    /// succeeded job's details back from it; `ferry send` never reads it again (a restore
    /// deletes it), and deleting the row costs a small file a fraction of updating it.
    public var keepsSucceededRows: Bool {
        self == .interface
    }
}
