/// Reads JSON text (RFC 8259) into a ``JSONValue``, keeping each object's members in the order
/// written.
public struct JSONReader {
    /// Why a text is not JSON.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The byte offset where reading stopped.
        public var offset: Int
        /// What was wrong there.
        public var problem: String

        public var description: String { "not valid JSON at byte \(offset): \(problem)" }
    }

    /// How deeply arrays and objects may nest before the text is refused.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one JSON document: a value with nothing but white space around it.
    ///
    /// - Parameter bytes: The document, UTF-8 (a byte order mark at the start is skipped).
    /// - Returns: The value.
    /// - Throws: ``SyntaxError`` naming the first byte that is not JSON.
    public static func read(_ bytes: some Sequence<UInt8>) throws(SyntaxError) -> JSONValue {
        var reader = JSONReader(Array(bytes))
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("text after the value") }
        return value
    }

    private func error(_ problem: String) -> SyntaxError {
        SyntaxError(offset: index, problem: problem)
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw error("the text ends where a value should be") }
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var members: [JSONValue.Member] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            index += 1
            members.append(JSONValue.Member(key: key, value: try value(depth: depth + 1)))
            guard try separator(closing: "}") else { return .object(members) }
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            guard try separator(closing: "]") else { return .array(elements) }
        }
    }

    /// Reads the `,` between two members or elements (true) or the closing bracket (false).
    private mutating func separator(closing: Unicode.Scalar) throws(SyntaxError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw error("the text ends before '\(closing)'") }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == UInt8(ascii: closing) { return false }
        index -= 1
        throw error("expected ',' or '\(closing)'")
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        guard bytes[index...].starts(with: word.utf8) else { throw error("expected \(word)") }
        index += word.utf8.count
    }

    private mutating func number() throws(SyntaxError) -> String {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            let first = reader.index
            while reader.index < reader.bytes.count, (0x30...0x39).contains(reader.bytes[reader.index]) { reader.index += 1 }
            return reader.index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let whole = digits(&self)
        guard whole > 0, !(leadingZero && whole > 1) else { index = start; throw error("expected a value") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func string() throws(SyntaxError) -> String {
        index += 1
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let decoded = String(validating: text, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8")
                }
                return decoded
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case 0..<0x20:
                index -= 1
                throw error("a control character in a string")
            default:
                text.append(byte)
            }
        }
        throw error("a string is not closed")
    }

    private mutating func escape(into text: inout [UInt8]) throws(SyntaxError) {
        guard index < bytes.count else { throw error("a string is not closed") }
        let byte = bytes[index]
        index += 1
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        if let plain = simple[byte] {
            text.append(plain)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw error("an unknown escape") }
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard bytes[index...].starts(with: Array("\\u".utf8)) else { throw error("a lone surrogate") }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw error("a lone surrogate")
        }
        text += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
              bytes[index..<index + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else {
            throw error("expected four hex digits after \\u")
        }
        index += 4
        return value
    }
}
