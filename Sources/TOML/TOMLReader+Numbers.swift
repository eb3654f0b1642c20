extension TOMLReader {
    /// An integer, a float, or a date or time; the next byte is a digit, a sign, `i` or `n`.
    mutating func numberOrDate() throws(TOMLError) -> TOMLValue {
        if digits(at: index, 4), peek(4) == .minus { return try dateOrDateTime() }
        if digits(at: index, 2), peek(2) == .colon {
            let start = index
            try time()
            return .localTime(text(from: start))
        }
        let start = index
        while let byte = peek(), byte.isBareKey || byte == .period || byte == .plus { index += 1 }
        let token = Array(bytes[start..<index]) // not empty: its first byte is one of those taken
        let spelled = String(decoding: token, as: UTF8.self)
        switch spelled {
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if token.count > 2, token[0] == UInt8(ascii: "0"), let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][token[1]] {
            return .integer(try integer(token.dropFirst(2), radix: radix, spelled: spelled, at: start))
        }
        let negative = token[0] == .minus
        let unsigned = token[0] == .plus || negative ? token.dropFirst() : token[...]
        guard let first = unsigned.first, first.isDigit else { throw error("'\(spelled)' is not a number", at: start) }
        let exponent = unsigned.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let point = unsigned.firstIndex(of: .period)
        let whole = unsigned[..<(point ?? exponent ?? unsigned.endIndex)]
        guard Self.separated(whole, by: \.isDigit) else { throw error(Self.badDigits(spelled), at: start) }
        guard whole.count == 1 || whole.first != UInt8(ascii: "0") else {
            throw error("'\(spelled)': a decimal number cannot start with 0 (leading zeros are not allowed)", at: start)
        }
        guard point != nil || exponent != nil else {
            return .integer(try integer(whole, radix: 10, negative: negative, spelled: spelled, at: start))
        }
        if let point {
            let fraction = unsigned[(point + 1)..<(exponent ?? unsigned.endIndex)]
            guard Self.separated(fraction, by: \.isDigit) else {
                throw error("'\(spelled)': a float needs digits after its decimal point", at: start)
            }
        }
        if let exponent {
            var power = unsigned[(exponent + 1)...]
            if power.first == .plus || power.first == .minus { power = power.dropFirst() }
            guard Self.separated(power, by: \.isDigit) else { throw error("'\(spelled)': a float needs digits in its exponent", at: start) }
        }
        guard let number = Double(String(decoding: token.filter { $0 != .underscore }, as: UTF8.self)) else {
            throw error("'\(spelled)' is not a number", at: start)
        }
        return .float(number)
    }

    /// Digits (of a radix) as an integer that must fit in 64 bits.
    private func integer(_ digits: ArraySlice<UInt8>, radix: Int, negative: Bool = false, spelled: String, at start: Int) throws(TOMLError) -> Int {
        let isDigit: (UInt8) -> Bool = { byte in Self.digitValue(byte).map { $0 < radix } ?? false }
        guard Self.separated(digits, by: isDigit) else {
            throw error(radix == 10 ? Self.badDigits(spelled) : "'\(spelled)': not a base-\(radix) integer (digits, with single underscores between them)", at: start)
        }
        var magnitude: UInt64 = 0
        for byte in digits where byte != .underscore {
            let (shifted, overflowed) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(Self.digitValue(byte) ?? 0))
            guard !overflowed, !carried else { throw outOfRange(spelled, at: start) }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { throw outOfRange(spelled, at: start) }
            return magnitude == UInt64(Int.max) + 1 ? .min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { throw outOfRange(spelled, at: start) }
        return Int(magnitude)
    }

    private func outOfRange(_ spelled: String, at start: Int) -> TOMLError {
        error("the integer \(spelled) does not fit in 64 bits (\(Int.min) to \(Int.max))", at: start)
    }

    private static func badDigits(_ spelled: String) -> String {
        "'\(spelled)' is not a number (digits, with single underscores between them; a float as 1.5, 1e6 or 1.5e-3)"
    }

    /// Whether bytes are digits with single underscores between them.
    private static func separated(_ digits: ArraySlice<UInt8>, by isDigit: (UInt8) -> Bool) -> Bool {
        guard let first = digits.first, let last = digits.last, isDigit(first), isDigit(last) else { return false }
        var previous = first
        for byte in digits.dropFirst() {
            guard isDigit(byte) || (byte == .underscore && previous != .underscore) else { return false }
            previous = byte
        }
        return true
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        if byte.isDigit { return Int(byte - UInt8(ascii: "0")) }
        if byte.isLetter { return Int((byte | 0x20) - UInt8(ascii: "a")) + 10 }
        return nil
    }

    // MARK: Dates and times

    /// `YYYY-MM-DD`, with a time after `T` (or a space) and an offset or not.
    private mutating func dateOrDateTime() throws(TOMLError) -> TOMLValue {
        let start = index
        guard digits(at: index + 5, 2), peek(7) == .minus, digits(at: index + 8, 2) else {
            throw error("a date is written YYYY-MM-DD", at: start)
        }
        let year = number(at: index, 4)
        let month = number(at: index + 5, 2)
        let day = number(at: index + 8, 2)
        guard (1...12).contains(month) else { throw error("month \(month) does not exist (1 to 12)", at: start + 5) }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { throw error("day \(day) does not exist in month \(month) of \(year)", at: start + 8) }
        index += 10
        let separator = peek()
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
            || (separator == .space && digits(at: index + 1, 2) && peek(3) == .colon) else {
            return .localDate(text(from: start))
        }
        index += 1
        try time()
        switch peek() {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case .plus, .minus:
            guard digits(at: index + 1, 2), peek(3) == .colon, digits(at: index + 4, 2) else {
                throw error("an offset is written Z, +HH:MM or -HH:MM")
            }
            guard number(at: index + 1, 2) <= 23, number(at: index + 4, 2) <= 59 else { throw error("the offset is out of range") }
            index += 6
        default:
            return .localDateTime(text(from: start))
        }
        return .offsetDateTime(text(from: start))
    }

    /// `HH:MM:SS`, with a fraction of a second or not.
    private mutating func time() throws(TOMLError) {
        guard digits(at: index, 2), peek(2) == .colon, digits(at: index + 3, 2), peek(5) == .colon, digits(at: index + 6, 2) else {
            throw error("a time is written HH:MM:SS (seconds are not optional in TOML 1.0)")
        }
        guard number(at: index, 2) <= 23, number(at: index + 3, 2) <= 59, number(at: index + 6, 2) <= 60 else {
            throw error("the time \(text(from: index, count: 8)) does not exist")
        }
        index += 8
        if peek() == .period {
            guard digits(at: index + 1, 1) else { throw error("a fraction of a second needs digits after its '.'") }
            index += 1
            while let byte = peek(), byte.isDigit { index += 1 }
        }
    }

    private func digits(at offset: Int, _ count: Int) -> Bool {
        offset + count <= bytes.count && bytes[offset..<(offset + count)].allSatisfy(\.isDigit)
    }

    private func number(at offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private func text(from start: Int, count: Int? = nil) -> String {
        String(decoding: bytes[start..<(count.map { start + $0 } ?? index)], as: UTF8.self)
    }
}
