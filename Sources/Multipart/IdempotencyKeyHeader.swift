/// The `Idempotency-Key` request header (`draft-ietf-httpapi-idempotency-key-header`) as both
/// ends read it: Ferry's client sends one per job, `ferry serve` stores a repeat once.
public enum IdempotencyKeyHeader {
    /// The header's name.
    public static let name = "Idempotency-Key"
    /// The header a server adds to an answer it replayed for a repeated key (as Stripe's API does).
    public static let replayedName = "Idempotent-Replayed"
    /// The longest key read (the draft sets none; servers commonly allow 255).
    public static let maximumLength = 255

    /// A key as the header's value: a structured-field string (RFC 8941), `"…"`.
    ///
    /// - Parameter key: The key's text (visible ASCII other than `"` and `\`).
    /// - Returns: The value.
    public static func value(of key: String) -> String {
        "\"\(key)\""
    }

    /// A key's text read from the header's value: a structured-field string (`"…"`, as the draft
    /// says) or, as some servers echo it, bare.
    ///
    /// - Parameter value: The header's value.
    /// - Returns: The text, or nil when it is empty, too long, or holds anything but visible ASCII
    ///   other than `"` and `\`.
    public static func key(inValue value: String) -> String? {
        var text = value.trimmingWhitespace()
        if text.hasPrefix("\"") {
            guard text.count >= 2, text.hasSuffix("\"") else { return nil }
            text = String(text.dropFirst().dropLast())
        }
        guard !text.isEmpty, text.utf8.count <= maximumLength,
              text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        else { return nil }
        return text
    }
}
