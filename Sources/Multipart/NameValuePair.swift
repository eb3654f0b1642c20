/// A name and a value: a header line (`Name: value`, ``HeaderField``), a text field of a form
/// (`-F name=value`, `FormTextField`) or a row of the interface's form (`FormRow`) — one type,
/// so the three pass to each other as they are.
///
/// Its `Codable` shape, `{"name": …, "value": …}`, is what the journal's job specs and the
/// interface's saved form hold.
public struct NameValuePair: Sendable, Hashable, Codable {
    /// The header, field or parameter name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a pair.
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
