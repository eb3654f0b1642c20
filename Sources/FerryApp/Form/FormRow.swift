/// One row of an editable list of the form: a parameter (`key = value`) or a header
/// (`Name: value`).
public struct FormRow: Hashable, Sendable, Codable {
    /// The parameter or header name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether a header of this name carries a secret whose value is masked: `Authorization`,
    /// `Cookie`, `Proxy-Authorization`, or a name containing `token`, `secret` or `key`.
    public var isSecretHeader: Bool {
        let folded = name.lowercased()
        if ["authorization", "cookie", "proxy-authorization"].contains(folded) { return true }
        return ["token", "secret", "key"].contains { folded.contains($0) }
    }
}
