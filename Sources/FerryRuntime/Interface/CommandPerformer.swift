import FerryApp

/// Carries out the model's commands: the I/O and engine calls behind ``AppCommand``.
///
/// ``CommandWorker`` calls it on its own queue, never on the interface thread.
public protocol CommandPerformer: Sendable {
    /// Carries out one command.
    ///
    /// - Parameter command: What the model asked for.
    /// - Returns: The messages that answer it (a directory's listing, a failure), in order.
    func perform(_ command: AppCommand) -> [AppMessage]
}
