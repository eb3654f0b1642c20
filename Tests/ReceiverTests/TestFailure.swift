/// An error a test helper throws when the test environment is not what it needs.
struct TestFailure: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// Creates a failure with a message.
    init(_ description: String) {
        self.description = description
    }
}
