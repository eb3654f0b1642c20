/// A TOML table: keys in the order they were first written, each with its value and, for a
/// table read from text, the position of its key.
///
/// Two tables are equal when they hold the same keys in the same order with equal values;
/// positions do not count.
public struct TOMLTable: Hashable, Sendable {
    /// The keys, in order.
    public private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]
    private var positions: [String: TOMLPosition] = [:]

    /// An empty table.
    public init() {}

    /// A table of these keys and values, in this order.
    ///
    /// - Parameter pairs: The keys and values; a repeated key keeps its first place and its last value.
    public init(_ pairs: [(String, TOMLValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The value of a key; setting a new key adds it at the end, setting nil removes it.
    public subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
                positions[key] = nil
            }
        }
    }

    /// Where a key was written, for a table read from text (the first mention, for a table
    /// made by a dotted key or a header).
    ///
    /// - Parameter key: The key.
    /// - Returns: Its position, or nil when the table was not read from text or has no such key.
    public func position(of key: String) -> TOMLPosition? {
        positions[key]
    }

    /// Whether the table has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// Adds a key read from text, with where it was written.
    mutating func add(_ key: String, _ value: TOMLValue, at position: TOMLPosition) {
        self[key] = value
        positions[key] = position
    }

    public static func == (left: TOMLTable, right: TOMLTable) -> Bool {
        left.keys == right.keys && left.values == right.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}
