/// The Levenshtein distance between two strings: how many characters must be inserted, deleted
/// or replaced to turn one into the other (`ulr` → `url`: 2), for "did you mean" suggestions.
enum EditDistance {
    /// The distance between `a` and `b`, by characters.
    ///
    /// - Parameters:
    ///   - a: One string.
    ///   - b: The other.
    /// - Returns: The number of single-character edits.
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, character) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in 0..<b.count {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (character == b[j] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
