import FoundationEssentials

/// A value bound to a statement's parameter, in one of SQLite's storage classes.
public enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Bytes; an empty blob stays an empty blob (not NULL).
    case blob(Data)

    /// An integer, or NULL for nil.
    ///
    /// - Parameter value: The integer.
    public init(_ value: Int64?) { self = value.map(Self.integer) ?? .null }

    /// An integer, or NULL for nil.
    ///
    /// - Parameter value: The integer.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }

    /// A real, or NULL for nil.
    ///
    /// - Parameter value: The number.
    public init(_ value: Double?) { self = value.map(Self.real) ?? .null }

    /// Text, or NULL for nil.
    ///
    /// - Parameter value: The text.
    public init(_ value: String?) { self = value.map(Self.text) ?? .null }

    /// A blob, or NULL for nil.
    ///
    /// - Parameter value: The bytes.
    public init(_ value: Data?) { self = value.map(Self.blob) ?? .null }

    /// 1 or 0, as SQLite stores booleans.
    ///
    /// - Parameter value: The boolean.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
}
