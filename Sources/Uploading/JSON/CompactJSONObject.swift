/// One compact JSON object built member by member: absent (nil) members are left out, strings
/// are escaped as JSON requires (quote, backslash and control characters; `/` and non-ASCII are
/// written as they are). `ferry send --json` prints its records with it, and the journal writes
/// its JSON columns with it: `JSONEncoder` costs a queue of small files more than their upload
/// does. What it writes decodes with `JSONDecoder` as the same values `JSONEncoder` writes.
public struct CompactJSONObject: Sendable {
    private var text = "{"

    /// Creates an empty object.
    public init() {}

    /// Adds a string member.
    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        open(key)
        Self.appendQuoted(value, to: &text)
    }

    /// Adds an integer member.
    public mutating func add(_ key: String, _ value: Int64?) {
        guard let value else { return }
        open(key)
        text += String(value)
    }

    /// Adds an unsigned integer member.
    public mutating func add(_ key: String, _ value: UInt64?) {
        guard let value else { return }
        open(key)
        text += String(value)
    }

    /// Adds an integer member.
    public mutating func add(_ key: String, _ value: Int?) {
        add(key, value.map(Int64.init))
    }

    /// Adds a number member; a value that is not finite is left out (JSON has no such numbers).
    /// Whole numbers are written without a fraction, others in the shortest form that reads back
    /// as the same `Double`.
    public mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        open(key)
        if value == value.rounded(), abs(value) < 1e15 {
            text += String(Int64(value))
        } else {
            text += String(value)
        }
    }

    /// Adds an array-of-strings member.
    public mutating func add(_ key: String, _ values: [String]?) {
        guard let values else { return }
        open(key)
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            Self.appendQuoted(value, to: &text)
        }
        text += "]"
    }

    /// Adds a member whose value is already JSON text (an array or object built elsewhere).
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - json: The value's JSON text, written as it is.
    public mutating func add(_ key: String, json: String?) {
        guard let json else { return }
        open(key)
        text += json
    }

    /// The object's text, closed.
    public var finished: String {
        text + "}"
    }

    private mutating func open(_ key: String) {
        if text.utf8.count > 1 { text += "," }
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    /// Appends `value` as a JSON string, quoted and escaped.
    ///
    /// - Parameters:
    ///   - value: The string.
    ///   - text: Where it is appended.
    public static func appendQuoted(_ value: String, to text: inout String) {
        text += "\""
        var plainStart = value.utf8.startIndex
        for index in value.utf8.indices {
            let byte = value.utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            text += value[plainStart..<index]
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\t"): text += "\\t"
            default:
                let hex = String(byte, radix: 16)
                text += "\\u00" + (hex.count < 2 ? "0" : "") + hex
            }
            plainStart = value.utf8.index(after: index)
        }
        text += value[plainStart...]
        text += "\""
    }
}
