/// The keys tables of `docs/manual.md`, generated from ``KeyBindings/all``.
///
/// The manual holds the text between its `keys:begin` and `keys:end` marker lines;
/// `KeysDocumentTests` fails when that text differs from ``markdown()`` and rewrites it when
/// `FERRY_UPDATE_DOCS=1` is set.
public enum KeysDocument {
    /// The Markdown of the keys tables: one for the keys that work in every pane, then one for
    /// each pane in Tab order.
    ///
    /// Each table lists the bindings the help screen lists (``KeyBinding/isListedInHelpScreen``),
    /// in the order of ``KeyBindings/all``, a label with the same description only once.
    ///
    /// - Returns: The tables, each under a `###` heading, a blank line between two; the text
    ///   ends with a line break.
    public static func markdown() -> String {
        let listed = KeyBindings.all.filter(\.isListedInHelpScreen)
        let sections: [(title: String, pane: Pane?)] = [(everywhereTitle, nil)] + Pane.allCases.map { ($0.title, $0) }
        return sections.map { section in
            table(titled: section.title, listing: listed.filter { $0.pane == section.pane })
        }.joined(separator: "\n")
    }

    /// The heading of the table of keys that work in every pane (``KeyBinding/pane`` is `nil`).
    static let everywhereTitle = "Everywhere"

    /// The table row of a binding, as ``markdown()`` writes it.
    ///
    /// - Parameter binding: The binding.
    /// - Returns: The row, without a line break.
    static func row(of binding: KeyBinding) -> String {
        "| `\(escaped(binding.label))` | \(escaped(binding.description)) |"
    }

    private static func table(titled title: String, listing bindings: [KeyBinding]) -> String {
        var written: Set<[String]> = []
        let rows = bindings.filter { written.insert([$0.label, $0.description]).inserted }.map(row(of:))
        return (["### \(title)", "", "| Key | What it does |", "| --- | --- |"] + rows).map { $0 + "\n" }.joined()
    }

    /// A cell's text with each `|` escaped, so that it does not end the cell (in a code span too).
    private static func escaped(_ text: String) -> String {
        String(text.flatMap { $0 == "|" ? ["\\", "|"] : [$0] })
    }
}
