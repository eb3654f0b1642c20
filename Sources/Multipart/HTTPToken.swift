/// RFC 9110 tokens: what header names and methods are made of.
public enum HTTPToken {
    private static let characters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    /// Whether `text` is a non-empty token.
    ///
    /// - Parameter text: A header name or method.
    /// - Returns: True when every character is a `tchar`.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(characters.contains)
    }
}
