/// A question the interface is waiting for the user to answer with `y` or `n`.
public enum Confirmation: Hashable, Sendable {
    /// Quit while uploads run (they are stopped and kept in the journal).
    case quit(activeJobs: Int)
    /// Select every file of a large folder.
    case selectFolder(FileCollection)
}
