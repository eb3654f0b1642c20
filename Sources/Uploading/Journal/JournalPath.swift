/// The two path manipulations the journal makes on its file's path, as plain text (what
/// `NSString`'s `deletingLastPathComponent` and `appendingPathComponent` did, without full
/// Foundation).
enum JournalPath {
    /// The directory part of a path: `/a/b/c` → `/a/b`, `/a` → `/`, `c` → `` (empty: the current
    /// directory). Trailing slashes are ignored.
    ///
    /// - Parameter path: The path.
    /// - Returns: Its directory.
    static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let directory = trimmed[..<slash]
        return directory.isEmpty ? "/" : String(directory)
    }

    /// A path with a relative path appended after one slash.
    ///
    /// - Parameters:
    ///   - component: What to append (`ferry/journal.sqlite`).
    ///   - path: The directory.
    /// - Returns: The joined path.
    static func appending(_ component: String, to path: String) -> String {
        var base = Substring(path)
        while base.hasSuffix("/") { base.removeLast() }
        return String(base) + "/" + component
    }
}
