/// One compact JSON object built member by member, as `ferry send --json` prints its records:
/// absent (nil) members are left out, strings are escaped as JSON requires (quote, backslash and
/// control characters; `/` and non-ASCII are written as they are). Faster than `JSONEncoder`,
/// which costs a queue of small files more than their upload does.
struct JSONObjectLine {
    private var text = "{"

    /// Adds a string member.
    mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        open(key)
        Self.appendQuoted(value, to: &text)
    }

    /// Adds an integer member.
    mutating func add(_ key: String, _ value: Int64?) {
        guard let value else { return }
        open(key)
        text += String(value)
    }

    /// Adds an integer member.
    mutating func add(_ key: String, _ value: Int?) {
        add(key, value.map(Int64.init))
    }

    /// Adds a number member; a value that is not finite is left out (JSON has no such numbers).
    mutating func add(_ key: String, _ value: Double?) {
        guard let value, value.isFinite else { return }
        open(key)
        if value == value.rounded(), abs(value) < 1e15 {
            text += String(Int64(value))
        } else {
            text += String(value)
        }
    }

    /// Adds an array-of-strings member.
    mutating func add(_ key: String, _ values: [String]?) {
        guard let values else { return }
        open(key)
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            Self.appendQuoted(value, to: &text)
        }
        text += "]"
    }

    /// The object's text, closed.
    var finished: String {
        text + "}"
    }

    private mutating func open(_ key: String) {
        if text.utf8.count > 1 { text += "," }
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    private static func appendQuoted(_ value: String, to text: inout String) {
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
