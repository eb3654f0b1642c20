/// Pure helpers on path strings.
public enum PathName {
    /// The last component of a path: what a file part's filename defaults to.
    ///
    /// - Parameter path: A path such as `/a/b/c.txt` or `c.txt`.
    /// - Returns: `c.txt`; trailing slashes are ignored; `/` gives `/`.
    public static func lastComponent(of path: String) -> String {
        // On the UTF-8 view: "/" is one byte and never part of another character's bytes.
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        guard let last = bytes.lastIndex(where: { $0 != slash }) else { return path.isEmpty ? "" : "/" }
        let end = bytes.index(after: last)
        let start = bytes[..<end].lastIndex(of: slash).map { bytes.index(after: $0) } ?? bytes.startIndex
        return String(path[start..<end])
    }

    /// The folder a path names its last component in (what `NSString`'s
    /// `deletingLastPathComponent` gives).
    ///
    /// - Parameter path: A path such as `/a/b/c.txt`.
    /// - Returns: `/a/b`; `/` for `/c.txt`; an empty string for `c.txt`; trailing slashes are
    ///   ignored.
    public static func parent(of path: String) -> String {
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        guard let last = bytes.lastIndex(where: { $0 != slash }) else { return path.isEmpty ? "" : "/" }
        guard let separator = bytes[..<last].lastIndex(of: slash) else { return "" }
        guard let end = bytes[...separator].lastIndex(where: { $0 != slash }) else { return "/" }
        return String(path[...end])
    }

    /// A path made absolute against `directory`, lexically (no file is looked at): what the
    /// journal keeps, so a job queued as `a.txt` in `/x` is still found from another folder.
    ///
    /// - Parameters:
    ///   - path: A path as typed: absolute, or relative to `directory`.
    ///   - directory: The current directory (absolute); nil leaves `path` as it is.
    /// - Returns: `path` if it begins with `/` (or `directory` is nil), else `directory/path`
    ///   with any leading `./` dropped.
    public static func absolute(_ path: String, in directory: String?) -> String {
        guard let directory, !path.hasPrefix("/"), !path.isEmpty else { return path }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2).drop { $0 == "/" } }
        return relative.isEmpty || relative == "." ? directory : joined(directory, String(relative))
    }

    /// `component` appended to `folder` with one `/` between them.
    ///
    /// - Parameters:
    ///   - folder: A folder's path (an empty one gives `component` alone).
    ///   - component: A name or relative path.
    /// - Returns: `folder/component`.
    public static func joined(_ folder: String, _ component: String) -> String {
        guard !folder.isEmpty else { return component }
        return folder.hasSuffix("/") ? folder + component : folder + "/" + component
    }

    /// The extension of a filename, lowercased, without the dot; nil if there is none.
    ///
    /// - Parameter filename: A filename such as `Photo.JPG`.
    /// - Returns: `jpg`; nil for `README` or `.bashrc`.
    public static func lowercasedExtension(of filename: String) -> String? {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return nil }
        let ext = filename[filename.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }
}
