extension TOMLReader {
    /// A basic string, `"..."` or `"""..."""`, its escapes replaced; the next byte is its first quote.
    mutating func basicString(multiLine: Bool) throws(TOMLError) -> String {
        let start = index
        var text: [UInt8] = []
        index += try opening(multiLine: multiLine)
        while true {
            guard let byte = peek() else { throw error("the string that starts at \(position(of: start)) is not closed") }
            switch byte {
            case .quotationMark:
                if try closing(.quotationMark, multiLine: multiLine, into: &text) { return String(decoding: text, as: UTF8.self) }
            case .backslash:
                try escape(multiLine: multiLine, into: &text)
            default:
                try plain(byte, multiLine: multiLine, into: &text)
            }
        }
    }

    /// A literal string, `'...'` or `'''...'''`, taken as it is; the next byte is its first quote.
    mutating func literalString(multiLine: Bool) throws(TOMLError) -> String {
        let start = index
        var text: [UInt8] = []
        index += try opening(multiLine: multiLine)
        while true {
            guard let byte = peek() else { throw error("the string that starts at \(position(of: start)) is not closed") }
            if byte == .apostrophe {
                if try closing(.apostrophe, multiLine: multiLine, into: &text) { return String(decoding: text, as: UTF8.self) }
            } else {
                try plain(byte, multiLine: multiLine, into: &text)
            }
        }
    }

    /// The length of the opening quotes, and of a multi-line string's line end right after them.
    private func opening(multiLine: Bool) throws(TOMLError) -> Int {
        guard multiLine else { return 1 }
        return peek(3) == .lineFeed ? 4 : 3
    }

    /// A quote in a string: the end of a single-line one; in a multi-line one, up to two quotes
    /// of text before three closing ones.
    ///
    /// - Returns: Whether the string ended.
    private mutating func closing(_ quote: UInt8, multiLine: Bool, into text: inout [UInt8]) throws(TOMLError) -> Bool {
        guard multiLine else {
            index += 1
            return true
        }
        var count = 0
        while peek(count) == quote { count += 1 }
        guard count >= 3 else {
            text.append(contentsOf: repeatElement(quote, count: count))
            index += count
            return false
        }
        guard count <= 5 else {
            throw error("too many quotes: a multi-line string ends with three, after at most two of its own", at: index + 5)
        }
        text.append(contentsOf: repeatElement(quote, count: count - 3))
        index += count
        return true
    }

    /// A byte of text: a line end only in a multi-line string, no control character but tab.
    private mutating func plain(_ byte: UInt8, multiLine: Bool, into text: inout [UInt8]) throws(TOMLError) {
        if byte == .lineFeed {
            guard multiLine else {
                throw error("the string is not closed on its line (a string over several lines needs triple quotes)")
            }
        } else if byte.isControl {
            throw error("\(byte.scalarName) is not allowed in a string; write it as an escape")
        }
        text.append(byte)
        index += 1
    }

    /// An escape in a basic string; the next byte is its backslash.
    private mutating func escape(multiLine: Bool, into text: inout [UInt8]) throws(TOMLError) {
        let start = index
        index += 1
        guard let byte = peek() else { throw error("the string ends in the middle of an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(.tab)
        case UInt8(ascii: "n"): text.append(.lineFeed)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(.carriageReturn)
        case .quotationMark, .backslash: text.append(byte)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let length = byte == UInt8(ascii: "u") ? 4 : 8
            let digits = bytes[index..<min(index + length, bytes.count)]
            guard digits.count == length, digits.allSatisfy(\.isHexDigit),
                  let code = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw error("\\\(Character(Unicode.Scalar(byte))) must be followed by \(length) hexadecimal digits", at: start)
            }
            guard let scalar = Unicode.Scalar(code) else {
                throw error("\\\(Character(Unicode.Scalar(byte)))\(String(decoding: digits, as: UTF8.self)) is not a Unicode scalar value (a surrogate, or above 10FFFF)", at: start)
            }
            UTF8.encode(scalar) { text.append($0) }
            index += length
        case .space where multiLine, .tab where multiLine, .lineFeed where multiLine:
            index -= 1
            skipWhitespace()
            guard peek() == .lineFeed else {
                throw error("a backslash followed by whitespace must end the line (a line-ending backslash)", at: start)
            }
            while let next = peek(), next == .space || next == .tab || next == .lineFeed { index += 1 }
        default:
            throw error("invalid escape '\\\(describe(byte, at: index - 1).trimmingQuotes)' (TOML has \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", at: start)
        }
    }
}

extension String {
    /// `x` for `'x'`, as an escape's message quotes the character after the backslash.
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count > 2 ? String(dropFirst().dropLast()) : self
    }
}

extension UInt8 {
    /// `0-9 A-F a-f`.
    fileprivate var isHexDigit: Bool { isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20) }
}
