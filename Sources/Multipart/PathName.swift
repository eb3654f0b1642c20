/// Pure helpers on path strings.
public enum PathName {
    /// The last component of a path: what a file part's filename defaults to.
    ///
    /// - Parameter path: A path such as `/a/b/c.txt` or `c.txt`.
    /// - Returns: `c.txt`; trailing slashes are ignored; `/` gives `/`.
    public static func lastComponent(of path: String) -> String {
        let trimmed = path.reversed().drop(while: { $0 == "/" })
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        return String(trimmed.prefix(while: { $0 != "/" }).reversed())
    }

    /// The extension of a filename, lowercased, without the dot; nil if there is none.
    ///
    /// - Parameter filename: A filename such as `Photo.JPG`.
    /// - Returns: `jpg`; nil for `README` or `.bashrc`.
    static func lowercasedExtension(of filename: String) -> String? {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return nil }
        let ext = filename[filename.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }
}
