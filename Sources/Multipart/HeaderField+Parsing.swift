import FoundationEssentials

extension HeaderField {
    /// Parses a header line as given to curl's `-H`: `Name: value`.
    ///
    /// Spaces around the value are trimmed. The name must be non-empty and hold no spaces.
    ///
    /// - Parameter line: The header line.
    /// - Returns: The header, or nil if the line is not `Name: value`.
    public static func parse(_ line: String) -> HeaderField? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon]
        guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        return HeaderField(name: String(name), value: value)
    }
}
