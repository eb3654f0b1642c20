/// Writes TOML 1.0.0 text: a table as a document, a value as it is written after `=`, a key
/// bare when it can be and quoted when not.
public enum TOMLWriter {
    /// A table as a document: its plain keys first, then each sub-table as a `[section]` (none
    /// for a table holding only tables) and each non-empty array of tables as `[[sections]]`.
    ///
    /// - Parameter table: The root table.
    /// - Returns: The text, ending in a line end unless empty.
    public static func document(_ table: TOMLTable) -> String {
        var lines: [String] = []
        section(table, path: [], isArrayElement: false, into: &lines)
        return lines.map { $0 + "\n" }.joined()
    }

    /// A key, bare (`url`, `my-site_2`) when it is made of `A-Z a-z 0-9 _ -` only, otherwise
    /// quoted as a basic string.
    ///
    /// - Parameter key: The key.
    /// - Returns: Its text.
    public static func key(_ key: String) -> String {
        !key.isEmpty && key.utf8.allSatisfy(\.isBareKey) ? key : string(key)
    }

    /// A string as a basic string: `"` and `\` escaped, control characters as `\n`, `\t`... or
    /// `\u00XX`, everything else as it is.
    ///
    /// - Parameter text: The string.
    /// - Returns: Its text, quotes included.
    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{08}": result += "\\b"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\u{0C}": result += "\\f"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A value as it is written after `=`: tables inline (`{ a = 1 }`), arrays on one line (`[ 1, 2 ]`).
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text.
    public static func value(_ value: TOMLValue) -> String {
        switch value {
        case let .string(text): string(text)
        case let .integer(number): String(number)
        case let .float(number): float(number)
        case let .boolean(flag): flag ? "true" : "false"
        case let .offsetDateTime(text), let .localDateTime(text), let .localDate(text), let .localTime(text): text
        case let .array(values) where values.isEmpty: "[]"
        case let .array(values): "[ " + values.map(Self.value).joined(separator: ", ") + " ]"
        case let .table(table) where table.isEmpty: "{}"
        case let .table(table): "{ " + table.keys.map { "\(key($0)) = \(Self.value(table[$0]!))" }.joined(separator: ", ") + " }"
        }
    }

    private static func float(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        return "\(number)"
    }

    /// Whether a value is written as `[[sections]]`: a non-empty array of tables only.
    private static func isArrayOfTables(_ value: TOMLValue) -> Bool {
        guard let values = value.array, !values.isEmpty else { return false }
        return values.allSatisfy { $0.table != nil }
    }

    private static func section(_ table: TOMLTable, path: [String], isArrayElement: Bool, into lines: inout [String]) {
        let plain = table.keys.filter { key in
            let value = table[key]!
            return value.table == nil && !isArrayOfTables(value)
        }
        if !path.isEmpty, isArrayElement || !plain.isEmpty || table.isEmpty {
            if !lines.isEmpty { lines.append("") }
            let name = path.map(key).joined(separator: ".")
            lines.append(isArrayElement ? "[[\(name)]]" : "[\(name)]")
        }
        for name in plain { lines.append("\(key(name)) = \(value(table[name]!))") }
        for name in table.keys where !plain.contains(name) {
            if let sub = table[name]?.table {
                section(sub, path: path + [name], isArrayElement: false, into: &lines)
            }
            for case let .table(element) in table[name]?.array ?? [] {
                section(element, path: path + [name], isArrayElement: true, into: &lines)
            }
        }
    }
}
