/// A header line: a name and a value, as written on the wire (`Name: value`).
public struct HeaderField: Sendable, Hashable, Codable {
    /// The header name.
    public var name: String
    /// The header value.
    public var value: String

    /// Creates a header field.
    ///
    /// - Parameters:
    ///   - name: The header name.
    ///   - value: The header value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
