/// A table while the reader builds the document: open to new keys until the document ends, and
/// knowing how it was defined, for TOML's rules on defining a table twice.
final class TOMLTreeTable {
    /// What a key of the table holds while reading.
    enum Entry {
        /// A closed value: a string, number, date, array or inline table.
        case value(TOMLValue)
        /// A table still open to keys.
        case table(TOMLTreeTable)
        /// An array of tables (`[[key]]`); headers add to its last element.
        case tables([TOMLTreeTable])
    }

    /// How a table came to be.
    enum Definition {
        /// Made on the way to a header's or a dotted key's table (`a` for `[a.b]`): a header may
        /// still define it.
        case implicit
        /// Defined by its own header.
        case header
        /// Defined by dotted keys in an earlier section: neither a header nor a dotted key in
        /// another section may add to it.
        case dottedKeys
    }

    private(set) var keys: [String] = []
    private(set) var entries: [String: Entry] = [:]
    private var positions: [String: TOMLPosition] = [:]
    var definition: Definition

    init(_ definition: Definition) {
        self.definition = definition
    }

    /// Sets a key; the first position given for it is kept.
    func set(_ key: String, _ entry: Entry, at position: TOMLPosition) {
        if entries.updateValue(entry, forKey: key) == nil {
            keys.append(key)
            positions[key] = position
        }
    }

    /// The table as a value, its keys in order.
    func table() -> TOMLTable {
        var result = TOMLTable()
        for key in keys {
            guard let entry = entries[key], let position = positions[key] else { continue }
            switch entry {
            case let .value(value): result.add(key, value, at: position)
            case let .table(table): result.add(key, .table(table.table()), at: position)
            case let .tables(tables): result.add(key, .array(tables.map { .table($0.table()) }), at: position)
            }
        }
        return result
    }
}
