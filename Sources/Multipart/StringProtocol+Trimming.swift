/// Trimming without Foundation's `CharacterSet` (Ferry links FoundationEssentials only).
extension StringProtocol {
    /// The text without leading and trailing whitespace other than line breaks (spaces, tabs,
    /// Unicode spaces): what Foundation's `trimmingWhitespace()` keeps.
    public func trimmingWhitespace() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// The text without leading and trailing whitespace and line breaks.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming(where: \.isWhitespace)
    }

    /// The text without the leading and trailing characters that `isTrimmed` picks.
    ///
    /// - Parameter isTrimmed: Whether a character at either end goes.
    /// - Returns: What lies between the first and the last character that stays.
    public func trimming(where isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
