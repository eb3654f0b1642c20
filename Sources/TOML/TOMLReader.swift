/// Reads TOML 1.0.0 text, byte by byte, into a ``TOMLDocument``: the document's lines, keys,
/// headers and TOML's rules on redefinition. Values are in `TOMLReader+Values.swift`, strings in
/// `TOMLReader+Strings.swift`, numbers and dates in `TOMLReader+Numbers.swift`.
struct TOMLReader {
    /// One part of a dotted key, with where it starts.
    struct KeyPart {
        let name: String
        let offset: Int
    }

    /// The text as UTF-8, `\r\n` turned into `\n` (as TOML reads it).
    let bytes: [UInt8]
    /// The next byte to read.
    var index = 0
    /// Where each line starts.
    private let lineStarts: [Int]
    private let root = TOMLTreeTable(.implicit)
    /// The table the current section's keys go to.
    private var current: TOMLTreeTable
    /// Tables that dotted keys made or went through in the current section: they become
    /// ``TOMLTreeTable/Definition/dottedKeys`` at the next header.
    private var dotted: [TOMLTreeTable] = []
    private var headers: [(path: [String], isArrayElement: Bool, line: Int)] = []

    init(_ text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == .lineFeed, previous == .carriageReturn { bytes.removeLast() }
            bytes.append(byte)
            previous = byte
        }
        self.bytes = bytes
        lineStarts = [0] + bytes.indices.filter { bytes[$0] == .lineFeed }.map { $0 + 1 }
        current = root
    }

    /// Reads the whole text.
    mutating func document() throws(TOMLError) -> (TOMLTable, [TOMLSection]) {
        while let byte = peek() {
            switch byte {
            case .lineFeed:
                index += 1
            case .space, .tab:
                skipWhitespace()
            case .hash:
                try skipComment()
            case .leftBracket:
                try header()
                try endOfLine(after: "the table header")
            default:
                let key = try self.key()
                try insert(try keyValue(), at: key, into: current, inSection: true)
                try endOfLine(after: "the value")
            }
        }
        let lineCount = lineStarts.count
        let sections = headers.indices.map { number in
            let header = headers[number]
            let last = number + 1 < headers.count ? headers[number + 1].line - 1 : lineCount
            return TOMLSection(path: header.path, isArrayElement: header.isArrayElement, lines: header.line...max(last, header.line))
        }
        return (root.table(), sections)
    }

    // MARK: Lines, whitespace and comments

    func peek(_ ahead: Int = 0) -> UInt8? {
        index + ahead < bytes.count ? bytes[index + ahead] : nil
    }

    mutating func skipWhitespace() {
        while let byte = peek(), byte == .space || byte == .tab { index += 1 }
    }

    /// Skips whitespace, line ends and comments, as between an array's values.
    mutating func skipBlank() throws(TOMLError) {
        while let byte = peek() {
            switch byte {
            case .space, .tab, .lineFeed: index += 1
            case .hash: try skipComment()
            default: return
            }
        }
    }

    /// Skips a `#` comment up to (not past) its line end.
    mutating func skipComment() throws(TOMLError) {
        index += 1
        while let byte = peek(), byte != .lineFeed {
            if byte.isControl { throw error("\(byte.scalarName) is not allowed in a comment") }
            index += 1
        }
    }

    /// Skips whitespace and a comment, then requires the line to end.
    mutating func endOfLine(after what: String) throws(TOMLError) {
        skipWhitespace()
        if peek() == .hash { try skipComment() }
        guard let byte = peek() else { return }
        guard byte == .lineFeed else { throw error("expected the end of the line after \(what), found \(describe(byte))") }
        index += 1
    }

    // MARK: Errors

    /// An error at a byte offset (by default, the next byte).
    func error(_ reason: String, at offset: Int? = nil) -> TOMLError {
        TOMLError(position: position(of: offset ?? index), reason: reason)
    }

    /// The line and column of a byte offset.
    func position(of offset: Int) -> TOMLPosition {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        let column = bytes[start..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1
        return TOMLPosition(line: low + 1, column: column)
    }

    /// A byte as a message shows it: `'x'`, `the end of the line`, `U+0007`.
    ///
    /// - Parameters:
    ///   - byte: The byte.
    ///   - offset: Where it is (by default, the next byte), to show a whole non-ASCII character.
    func describe(_ byte: UInt8, at offset: Int? = nil) -> String {
        switch byte {
        case .lineFeed: "the end of the line"
        case _ where byte.isControl: byte.scalarName
        case 0x20..<0x7F: "'\(Character(Unicode.Scalar(byte)))'"
        default: "'\(String(decoding: bytes[(offset ?? index)...].prefix(4), as: UTF8.self).prefix(1))'"
        }
    }

    /// The next byte as a message shows it, or `the end of the document`.
    func found() -> String {
        peek().map { describe($0) } ?? "the end of the document"
    }

    // MARK: Keys

    /// A key, dotted or not, with whitespace around its dots.
    mutating func key() throws(TOMLError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            skipWhitespace()
            let start = index
            let name: String
            switch peek() {
            case .quotationMark?: name = try basicString(multiLine: false)
            case .apostrophe?: name = try literalString(multiLine: false)
            case let byte? where byte.isBareKey:
                while let byte = peek(), byte.isBareKey { index += 1 }
                name = String(decoding: bytes[start..<index], as: UTF8.self)
            case let byte?: throw error("expected a key, found \(describe(byte))")
            case nil: throw error("expected a key, found the end of the document")
            }
            parts.append(KeyPart(name: name, offset: start))
            skipWhitespace()
            guard peek() == .period else { return parts }
            index += 1
        }
    }

    /// `= value` after a key.
    mutating func keyValue() throws(TOMLError) -> TOMLValue {
        skipWhitespace()
        guard peek() == .equalsSign else {
            throw error("expected '=' after the key, found \(found())")
        }
        index += 1
        skipWhitespace()
        return try value()
    }

    // MARK: Tables

    /// Puts a value at a dotted key of a table, making the tables on the way.
    ///
    /// - Parameter inSection: Whether the table is a section's (not an inline table's): the
    ///   tables the key makes or goes through are then closed to other sections.
    mutating func insert(_ value: TOMLValue, at key: [KeyPart], into table: TOMLTreeTable, inSection: Bool) throws(TOMLError) {
        var table = table
        for (number, part) in key.dropLast().enumerated() {
            let path = Self.name(key.prefix(number + 1))
            switch table.entries[part.name] {
            case nil:
                let made = TOMLTreeTable(.implicit)
                table.set(part.name, .table(made), at: position(of: part.offset))
                table = made
            case let .table(existing)?:
                switch existing.definition {
                case .header:
                    throw error("cannot add to table '\(path)' with a dotted key: it has its own [\(path)] header", at: part.offset)
                case .dottedKeys:
                    throw error("cannot add to table '\(path)' here: dotted keys in an earlier section defined it", at: part.offset)
                case .implicit:
                    table = existing
                }
            case .tables?:
                throw error("cannot add to '\(path)' with a dotted key: it is an array of tables", at: part.offset)
            case let .value(existing)?:
                throw error(Self.closed(path, existing), at: part.offset)
            }
            if inSection { dotted.append(table) }
        }
        let last = key[key.count - 1]
        if let existing = table.entries[last.name] {
            let what = if case .value = existing { "" } else { " (as a table)" }
            throw error("duplicate key '\(Self.name(key))': it is already defined\(what)", at: last.offset)
        }
        table.set(last.name, .value(value), at: position(of: last.offset))
    }

    /// `[key]` or `[[key]]`: the table the next keys go to.
    private mutating func header() throws(TOMLError) {
        let start = index
        let isArrayElement = peek(1) == .leftBracket
        index += isArrayElement ? 2 : 1
        let key = try self.key()
        let close = isArrayElement ? "]]" : "]"
        guard peek() == .rightBracket, !isArrayElement || peek(1) == .rightBracket else {
            throw error("expected '\(close)' to close the table header, found \(found())")
        }
        index += isArrayElement ? 2 : 1
        for table in dotted where table.definition == .implicit { table.definition = .dottedKeys }
        dotted = []
        let path = Self.name(key)
        var table = root
        for (number, part) in key.dropLast().enumerated() {
            switch table.entries[part.name] {
            case nil:
                let made = TOMLTreeTable(.implicit)
                table.set(part.name, .table(made), at: position(of: part.offset))
                table = made
            case let .table(existing)?:
                table = existing
            case let .tables(elements)?:
                table = elements[elements.count - 1]
            case let .value(existing)?:
                throw error(Self.closed(Self.name(key.prefix(number + 1)), existing), at: part.offset)
            }
        }
        let last = key[key.count - 1]
        let made = TOMLTreeTable(.header)
        switch (table.entries[last.name], isArrayElement) {
        case (nil, false):
            table.set(last.name, .table(made), at: position(of: last.offset))
        case (nil, true):
            table.set(last.name, .tables([made]), at: position(of: last.offset))
        case let (.tables(elements)?, true):
            table.set(last.name, .tables(elements + [made]), at: position(of: last.offset))
        case let (.table(existing)?, false) where existing.definition == .implicit:
            existing.definition = .header
            current = existing
            headers.append((key.map(\.name), false, position(of: start).line))
            return
        case let (.table(existing)?, false):
            let how = existing.definition == .header ? "by an earlier [\(path)]" : "by dotted keys"
            throw error("table [\(path)] is defined twice: it was already defined \(how)", at: last.offset)
        case (.table?, true):
            throw error("cannot make [[\(path)]] an array of tables: '\(path)' is already a table", at: last.offset)
        case (.tables?, false):
            throw error("cannot define table [\(path)]: '\(path)' is an array of tables (write [[\(path)]] to add to it)", at: last.offset)
        case let (.value(existing)?, _):
            throw error(existing.table == nil ? "cannot define table '\(path)': it is already \(existing.kind)"
                : "cannot define table '\(path)': it is already an inline table, which is closed", at: last.offset)
        }
        current = made
        headers.append((key.map(\.name), isArrayElement, position(of: start).line))
    }

    /// A dotted key as a message shows it.
    static func name(_ parts: some Collection<KeyPart>) -> String {
        parts.map { TOMLWriter.key($0.name) }.joined(separator: ".")
    }

    private static func closed(_ path: String, _ value: TOMLValue) -> String {
        value.table == nil ? "cannot add keys to '\(path)': it is \(value.kind), not a table"
            : "cannot add keys to '\(path)': it is an inline table, which is closed"
    }
}
