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

    /// Whether two header names (or other tokens) are the same name: equal but for the case of
    /// ASCII letters, as HTTP compares them. Non-ASCII bytes must match exactly.
    ///
    /// - Parameters:
    ///   - one: A name.
    ///   - other: Another name.
    /// - Returns: True when they name the same thing.
    public static func namesEqual(_ one: String, _ other: String) -> Bool {
        one.utf8.count == other.utf8.count && zip(one.utf8, other.utf8).allSatisfy { lowered($0) == lowered($1) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
