/// A failure of the end-to-end harness itself.
struct E2EError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
