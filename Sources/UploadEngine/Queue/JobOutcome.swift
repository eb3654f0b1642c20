/// How a finished job ended (``JobPhase/finished(_:)``).
enum JobOutcome: Sendable, Hashable {
    /// The server accepted it.
    case succeeded
    /// It failed, and no automatic retry is left or allowed; its `lastError` says why.
    case failed
    /// The user cancelled it.
    case cancelled
}
