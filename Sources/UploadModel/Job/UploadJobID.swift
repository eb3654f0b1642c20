/// The stable identity of an upload job.
///
/// IDs are assigned once, in increasing order, by the journal (SQLite `AUTOINCREMENT`, never
/// reused) or, without a journal, by the manager's counter. A job keeps its ID across retries and
/// across runs restored from the journal.
public struct UploadJobID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The numeric value, as stored in the journal's `id` column.
    public let rawValue: Int64

    /// Wraps a numeric ID.
    ///
    /// - Parameter rawValue: The numeric value.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Wraps a numeric ID.
    ///
    /// - Parameter rawValue: The numeric value.
    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Wraps a literal ID (tests, examples).
    ///
    /// - Parameter value: The numeric value.
    public init(integerLiteral value: Int64) {
        self.rawValue = value
    }

    public static func < (lhs: UploadJobID, rhs: UploadJobID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { String(rawValue) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
