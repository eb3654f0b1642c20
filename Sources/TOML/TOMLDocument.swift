/// A TOML 1.0.0 document read from text: its root table, keys in the order written, and its
/// sections (headers and their lines).
public struct TOMLDocument: Hashable, Sendable {
    /// The root table.
    public let root: TOMLTable
    /// The headers, in the order written, each with its lines.
    public let sections: [TOMLSection]

    /// Reads a document.
    ///
    /// - Parameter text: TOML 1.0.0 text (`\r\n` and `\n` line ends).
    /// - Throws: ``TOMLError`` at the first place the text is not TOML: a syntax error, a value
    ///   out of range, or a key or table defined twice.
    public init(parsing text: String) throws(TOMLError) {
        var reader = TOMLReader(text)
        (root, sections) = try reader.document()
    }
}
