/// A TOML value. Dates and times are kept as their validated text (as written, `T` or space
/// between date and time).
public enum TOMLValue: Hashable, Sendable {
    /// A string.
    case string(String)
    /// A 64-bit integer.
    case integer(Int)
    /// A float, `inf` and `nan` included.
    case float(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// A date and time with an offset (`1979-05-27T07:32:00Z`).
    case offsetDateTime(String)
    /// A date and time without an offset (`1979-05-27T07:32:00`).
    case localDateTime(String)
    /// A date (`1979-05-27`).
    case localDate(String)
    /// A time of day (`07:32:00.5`).
    case localTime(String)
    /// An array; its values may be of different kinds.
    case array([TOMLValue])
    /// A table (standard, inline, or an element of an array of tables).
    case table(TOMLTable)

    /// The string, if this is one.
    public var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The integer, if this is one.
    public var integer: Int? {
        if case let .integer(number) = self { return number }
        return nil
    }

    /// The float, if this is one (an integer is not).
    public var float: Double? {
        if case let .float(number) = self { return number }
        return nil
    }

    /// The boolean, if this is one.
    public var boolean: Bool? {
        if case let .boolean(flag) = self { return flag }
        return nil
    }

    /// The array, if this is one.
    public var array: [TOMLValue]? {
        if case let .array(values) = self { return values }
        return nil
    }

    /// The table, if this is one.
    public var table: TOMLTable? {
        if case let .table(table) = self { return table }
        return nil
    }

    /// What kind of value this is, in words (`a string`, `an array`), for messages.
    public var kind: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .offsetDateTime: "an offset date-time"
        case .localDateTime: "a local date-time"
        case .localDate: "a local date"
        case .localTime: "a local time"
        case .array: "an array"
        case .table: "a table"
        }
    }
}
