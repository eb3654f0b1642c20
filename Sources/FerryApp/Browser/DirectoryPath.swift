/// Paths of folders as the browser moves between them: pure string work, no file system.
public enum DirectoryPath {
    /// The parent of a path (`/` stays `/`).
    ///
    /// - Parameter path: An absolute path.
    /// - Returns: The parent directory and the last component.
    public static func parent(of path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (path, "") }
        let name = String(trimmed[trimmed.index(after: slash)...])
        let directory = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        return (directory, name)
    }

    /// Joins a directory and a name.
    ///
    /// - Parameters:
    ///   - directory: The directory.
    ///   - name: The entry name.
    /// - Returns: The path.
    public static func join(_ directory: String, _ name: String) -> String {
        // Reserved to the byte: `+` leaves spare capacity (a path of 50 bytes took 144), and the
        // browser holds one path per entry, 100,000 in a large folder.
        let separator = directory.hasSuffix("/") ? "" : "/"
        var path = ""
        path.reserveCapacity(directory.utf8.count + separator.utf8.count + name.utf8.count)
        path += directory
        path += separator
        path += name
        return path
    }
}
