/// A text parameter sent with every upload of a job (`-F name=value`).
public struct FormTextField: Sendable, Hashable, Codable {
    /// The field name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a text field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
