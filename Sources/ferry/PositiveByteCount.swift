import ArgumentParser
import TextFormat

/// An option whose value is a positive byte count (`512K`, `8M`: `ByteCount`).
enum PositiveByteCount {
    /// The option's transform: the byte count, or a validation error naming the option.
    ///
    /// - Parameters:
    ///   - option: The option as typed (`--chunk-size`).
    ///   - meaning: What a value is, with examples (`a positive byte count such as 512K or 8M`).
    /// - Returns: The transform for `@Option`.
    static func transform(_ option: String, _ meaning: String) -> @Sendable (String) throws -> Int64 {
        { text in
            guard let bytes = ByteCount.parse(text), bytes > 0 else {
                throw ValidationError("\(option) must be \(meaning), got '\(text)'.")
            }
            return bytes
        }
    }
}
