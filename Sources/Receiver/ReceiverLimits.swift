/// What one request may hold before the receiver refuses it with 413: passed whole from the
/// configuration to the handler and each body's reader.
///
/// The defaults match `ferry serve` with no options: a 10 GiB body, 1000 parts, 1 MiB per text
/// field.
public struct ReceiverLimits: Sendable, Hashable {
    /// The largest request body accepted, in bytes.
    public var maxBodySize: Int64
    /// The most parts (files and fields together) accepted in one request.
    public var maxParts: Int
    /// The largest text field value accepted, in bytes; fields are kept in memory.
    public var maxFieldSize: Int

    /// The default body limit: 10 GiB.
    public static let defaultMaxBodySize: Int64 = 10 << 30
    /// The default part limit: 1000.
    public static let defaultMaxParts = 1000
    /// The default text field limit: 1 MiB.
    public static let defaultMaxFieldSize = 1 << 20

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxBodySize: The body limit in bytes.
    ///   - maxParts: The part limit.
    ///   - maxFieldSize: The text field limit in bytes.
    public init(
        maxBodySize: Int64 = Self.defaultMaxBodySize,
        maxParts: Int = Self.defaultMaxParts,
        maxFieldSize: Int = Self.defaultMaxFieldSize
    ) {
        self.maxBodySize = maxBodySize
        self.maxParts = maxParts
        self.maxFieldSize = maxFieldSize
    }

    /// Checks every limit is in range.
    ///
    /// - Throws: ``ReceiverError/invalidConfiguration(reason:)`` naming the first bad option.
    public func validate() throws(ReceiverError) {
        if maxBodySize < 0 {
            throw .invalidConfiguration(reason: .valueOutOfRange(option: "--max-body", value: maxBodySize, allowed: 0...Int64.max))
        }
        if maxParts < 1 {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: "--max-parts", value: Int64(maxParts), allowed: 1...Int64(Int32.max)))
        }
        if maxFieldSize < 0 {
            throw .invalidConfiguration(
                reason: .valueOutOfRange(option: "maxFieldSize", value: Int64(maxFieldSize), allowed: 0...Int64(Int32.max)))
        }
    }
}
