extension TOMLReader {
    /// A value: string, number, boolean, date or time, array or inline table.
    mutating func value() throws(TOMLError) -> TOMLValue {
        guard let byte = peek() else { throw error("expected a value, found the end of the document") }
        switch byte {
        case .quotationMark:
            let multiLine = peek(1) == .quotationMark && peek(2) == .quotationMark
            return .string(try basicString(multiLine: multiLine))
        case .apostrophe:
            let multiLine = peek(1) == .apostrophe && peek(2) == .apostrophe
            return .string(try literalString(multiLine: multiLine))
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            for (word, flag) in [("true", true), ("false", false)] where matches(word) {
                index += word.utf8.count
                return .boolean(flag)
            }
            throw error("expected a value; booleans are lower-case 'true' and 'false', and strings need quotes")
        case .leftBracket:
            return try array()
        case .leftBrace:
            return try inlineTable()
        case _ where byte.isDigit || [.plus, .minus, UInt8(ascii: "i"), UInt8(ascii: "n")].contains(byte):
            return try numberOrDate()
        default:
            throw error("expected a value (a string, number, boolean, date, array or inline table), found \(describe(byte))")
        }
    }

    /// Whether the text at the next byte starts with this ASCII word.
    func matches(_ word: String) -> Bool {
        bytes[index...].starts(with: word.utf8)
    }

    /// `[a, b, ...]`: over lines, with comments, a trailing comma allowed.
    private mutating func array() throws(TOMLError) -> TOMLValue {
        let start = index
        index += 1
        var values: [TOMLValue] = []
        while true {
            try skipBlank()
            if peek() == .rightBracket { break }
            values.append(try value())
            try skipBlank()
            if peek() == .comma {
                index += 1
                continue
            }
            if peek() == .rightBracket { break }
            guard let byte = peek() else { throw error("the array opened at \(position(of: start)) is not closed with ']'") }
            throw error("expected ',' or ']' after a value in the array, found \(describe(byte))")
        }
        index += 1
        return .array(values)
    }

    /// `{ key = value, ... }`: on one line, no trailing comma, closed once read.
    private mutating func inlineTable() throws(TOMLError) -> TOMLValue {
        index += 1
        let table = TOMLTreeTable(.implicit)
        skipWhitespace()
        if peek() == .rightBrace {
            index += 1
            return .table(table.table())
        }
        while true {
            skipWhitespace()
            if peek() == .rightBrace { throw error("a trailing comma is not allowed in an inline table") }
            if peek() == .lineFeed { throw error("an inline table must be on one line (TOML 1.0)") }
            let key = try self.key()
            try insert(try keyValue(), at: key, into: table, inSection: false)
            skipWhitespace()
            switch peek() {
            case .comma?:
                index += 1
            case .rightBrace?:
                index += 1
                return .table(table.table())
            case .lineFeed?:
                throw error("an inline table must be on one line (TOML 1.0)")
            case let byte?:
                throw error("expected ',' or '}' after a value in the inline table, found \(describe(byte))")
            case nil:
                throw error("the inline table is not closed with '}'")
            }
        }
    }
}
