/// A `[table]` or `[[array of tables]]` header of a document and the lines up to the next
/// header: what an editor of the text needs to replace one table and keep the rest as written.
public struct TOMLSection: Hashable, Sendable {
    /// The header's key, one element per dotted part, unquoted (`[profiles."my site"]` is
    /// `["profiles", "my site"]`).
    public let path: [String]
    /// Whether the header is `[[path]]`, an element of an array of tables.
    public let isArrayElement: Bool
    /// The 1-based lines from the header's to the last before the next header (or the last of
    /// the document).
    public let lines: ClosedRange<Int>
}
