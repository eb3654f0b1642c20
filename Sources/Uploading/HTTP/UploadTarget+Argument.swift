extension UploadTarget {
    /// Whether a command-line argument is a URL rather than a path: it starts with `http://` or
    /// `https://` (in any case), as the URL curl takes among its arguments does. A file of such a
    /// name is given as `./NAME` (or after `--`).
    ///
    /// - Parameter argument: The argument.
    /// - Returns: True for a URL.
    public static func isURLArgument(_ argument: String) -> Bool {
        let scheme = argument.utf8.prefix(8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }  // ASCII lowercase
        return scheme.starts(with: "http://".utf8) || scheme.starts(with: "https://".utf8)
    }
}
