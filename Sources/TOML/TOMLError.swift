/// Why a text is not TOML 1.0.0: where the reader stopped, and what is wrong there in words.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is.
    public let position: TOMLPosition
    /// What is wrong, in words (`duplicate key 'url'`, `invalid escape '\x'`).
    public let reason: String

    /// An error.
    ///
    /// - Parameters:
    ///   - position: Where the problem is.
    ///   - reason: What is wrong, in words.
    public init(position: TOMLPosition, reason: String) {
        self.position = position
        self.reason = reason
    }

    /// `line L, column C: reason`.
    public var description: String { "\(position): \(reason)" }
}
