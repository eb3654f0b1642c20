/// The keys tables of `docs/manual.md`, generated from the help's sections
/// (``KeyHelpSection/all``), as the `?` screen shows them.
///
/// The manual holds the text between its `keys:begin` and `keys:end` marker lines;
/// `KeysDocumentTests` fails when that text differs from ``markdown()`` and rewrites it when
/// `FERRY_UPDATE_DOCS=1` is set.
public enum KeysDocument {
    /// The Markdown of the keys tables: one per section of the help, in its order.
    ///
    /// - Returns: The tables, each under a `###` heading, a blank line between two; the text
    ///   ends with a line break.
    public static func markdown() -> String {
        KeyHelpSection.all.map(table).joined(separator: "\n")
    }

    /// The table row of a binding, as ``markdown()`` writes it.
    ///
    /// - Parameter binding: The binding.
    /// - Returns: The row, without a line break.
    static func row(of binding: KeyBinding) -> String {
        "| `\(escaped(binding.label))` | \(escaped(binding.description)) |"
    }

    private static func table(_ section: KeyHelpSection) -> String {
        (["### \(section.title)", "", "| Key | What it does |", "| --- | --- |"] + section.bindings.map(row(of:)))
            .map { $0 + "\n" }.joined()
    }

    /// A cell's text with each `|` escaped, so that it does not end the cell (in a code span too).
    private static func escaped(_ text: String) -> String {
        String(text.flatMap { $0 == "|" ? ["\\", "|"] : [$0] })
    }
}
