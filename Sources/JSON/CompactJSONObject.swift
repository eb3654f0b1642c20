/// One compact JSON object built member by member: absent (nil) members are left out, strings
/// are escaped as JSON requires (quote, backslash and control characters; `/` and non-ASCII are
/// written as they are). `ferry send --json` prints its records with it, and the journal writes
/// its JSON columns with it: `JSONEncoder` costs a queue of small files more than their upload
/// does. What it writes decodes with `JSONDecoder` as the same values `JSONEncoder` writes.
public struct CompactJSONObject: Sendable {
    /// The object's UTF-8 so far, without its closing brace: bytes, not a `String`, because
    /// appending to a string checks and grows it at every step (a tenth of `ferry send`'s JSON cost).
    private var bytes: [UInt8]

    /// Creates an empty object.
    public init() {
        bytes = []
        bytes.reserveCapacity(192)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Adds a string member.
    public mutating func add(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        open(key)
        Self.appendQuoted(value, to: &bytes)
    }

    /// Adds an integer member.
    public mutating func add(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        open(key)
        appendDecimal(value.magnitude, negative: value < 0)
    }

    /// Adds an unsigned integer member.
    public mutating func add(_ key: StaticString, _ value: UInt64?) {
        guard let value else { return }
        open(key)
        appendDecimal(value, negative: false)
    }

    /// Adds an integer member.
    public mutating func add(_ key: StaticString, _ value: Int?) {
        add(key, value.map(Int64.init))
    }

    /// Adds a number member; a value that is not finite is left out (JSON has no such numbers).
    /// Whole numbers are written without a fraction, others in the shortest form that reads back
    /// as the same `Double`.
    public mutating func add(_ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        open(key)
        if value == value.rounded(), abs(value) < 1e15 {
            appendDecimal(Int64(value).magnitude, negative: value < 0)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Adds an array-of-strings member.
    public mutating func add(_ key: StaticString, _ values: [String]?) {
        guard let values else { return }
        open(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Adds a member whose value is already JSON text (an array or object built elsewhere).
    ///
    /// - Parameters:
    ///   - key: The member's name.
    ///   - json: The value's JSON text, written as it is.
    public mutating func add(_ key: StaticString, json: String?) {
        guard let json else { return }
        open(key)
        bytes.append(contentsOf: json.utf8)
    }

    /// The object's text, closed.
    public var finished: String {
        String(unsafeUninitializedCapacity: bytes.count + 1) { text in
            let count = text.initialize(fromContentsOf: bytes)
            text[count] = UInt8(ascii: "}")
            return count + 1
        }
    }

    /// Starts a member: its name, which is written as it is (a literal name in Ferry's code,
    /// with nothing to escape), quoted.
    private mutating func open(_ key: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends an integer's decimal digits, a `-` first when `negative`.
    private mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
        if negative { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: UInt64's 20 digits fit
        withUnsafeMutableBytes(of: &digits) { buffer in
            var value = magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            } while value > 0
            bytes.append(contentsOf: buffer[index...])
        }
    }

    /// Appends `value` as a JSON string, quoted and escaped.
    ///
    /// - Parameters:
    ///   - value: The string.
    ///   - text: Where it is appended.
    public static func appendQuoted(_ value: String, to text: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        appendQuoted(value, to: &bytes)
        text += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as a JSON string, quoted and escaped, in UTF-8.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var plainStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: utf8[plainStart..<index])
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0f)])
                }
                plainStart = index + 1
            }
            bytes.append(contentsOf: utf8[plainStart...])
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
