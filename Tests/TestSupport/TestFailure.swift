/// An error a test helper throws when the test environment is not what it needs (a binary not
/// built, a server that never answered, a command that failed).
public struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Creates a failure with a message.
    ///
    /// - Parameter description: What went wrong.
    public init(_ description: String) {
        self.description = description
    }
}
