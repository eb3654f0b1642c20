/// What a form part carries.
public enum FormPartContent: Sendable, Hashable, Codable {
    /// A text value.
    case text(String)
    /// A file's content.
    case file(FileSource)
}
