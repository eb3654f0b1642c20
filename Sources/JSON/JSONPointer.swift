/// A JSON pointer (RFC 6901): `/data/url`, `/files/0/link`; `~1` stands for `/` and `~0` for
/// `~` inside a name. The empty pointer names the whole document.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped, in order.
    public let tokens: [String]
    /// The pointer as written.
    public let description: String

    /// Parses a pointer.
    ///
    /// - Parameter text: The pointer: empty, or `/` followed by tokens separated by `/`.
    /// - Returns: nil when `text` is not empty and does not start with `/`, or holds a `~` not
    ///   followed by `0` or `1`.
    public init?(_ text: String) {
        guard text.isEmpty || text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var token = ""
            var escaped = false
            for character in raw {
                if escaped {
                    guard character == "0" || character == "1" else { return nil }
                    token.append(character == "0" ? "~" : "/")
                    escaped = false
                } else if character == "~" {
                    escaped = true
                } else {
                    token.append(character)
                }
            }
            guard !escaped else { return nil }
            tokens.append(token)
        }
        self.tokens = tokens
        description = text
    }

    /// The array index a token names: digits without a leading zero (`0` itself aside).
    ///
    /// - Parameter token: A reference token.
    /// - Returns: The index, or nil when the token is not one.
    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.allSatisfy(\.isASCII), token.allSatisfy(\.isNumber),
              token == "0" || !token.hasPrefix("0") else { return nil }
        return Int(token)
    }
}
