import TOML

/// One profile's `[profiles.NAME]` section as text, and how it goes into a document so that the
/// rest of the document (other profiles, comments, blank lines) stays as it is written.
struct ProfileSection {
    /// The profile's name.
    let name: String
    /// The section: its header and keys, each line ending in a line end.
    let text: String

    /// The document with this section in place of the profile's own section, or after its last
    /// line when the document has no such profile. Comment and blank lines at the end of the
    /// section being replaced are kept: they are taken to belong to what follows.
    ///
    /// - Parameters:
    ///   - original: The document's text.
    ///   - document: The document, read from `original`.
    /// - Returns: The new text, or nil when the profile is written some other way than as a
    ///   section of its own (an inline table, dotted keys).
    func edit(_ original: String, document: TOMLDocument) -> String? {
        var lines = original.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let replacement = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        if let own = document.sections.first(where: { $0.path == ["profiles", name] && !$0.isArrayElement }) {
            var end = own.lines.upperBound
            while end > own.lines.lowerBound, Self.isBlankOrComment(lines[end - 1]) { end -= 1 }
            lines.replaceSubrange((own.lines.lowerBound - 1)..<end, with: replacement)
            return lines.joined(separator: "\n")
        }
        guard document.root["profiles"]?.table?[name] == nil else { return nil }
        let kept = original.isEmpty || original.hasSuffix("\n") ? original : original + "\n"
        return kept + (kept.isEmpty || kept.hasSuffix("\n\n") ? "" : "\n") + text
    }

    /// Whether a line holds nothing but whitespace and, perhaps, a comment.
    private static func isBlankOrComment(_ line: String) -> Bool {
        let rest = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        return rest.isEmpty || rest.hasPrefix("#")
    }
}
