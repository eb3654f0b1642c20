/// The path manipulations the journal makes on its files' paths, as plain text (what
/// `NSString`'s `deletingLastPathComponent`, `appendingPathComponent` and `lastPathComponent`
/// did, without full Foundation).
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

    /// A path with a relative path appended after one slash (to an empty path: the relative path
    /// alone).
    ///
    /// - Parameters:
    ///   - component: What to append (`ferry/journal.sqlite`).
    ///   - path: The directory.
    /// - Returns: The joined path.
    static func appending(_ component: String, to path: String) -> String {
        guard !path.isEmpty else { return component }
        var base = Substring(path)
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        return base == "/" ? "/" + component : String(base) + "/" + component
    }

    /// The last component of a path: `/a/b/c` → `c` (trailing slashes ignored).
    ///
    /// - Parameter path: The path.
    /// - Returns: Its name.
    static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}
