/// A table of records by job ID, stored contiguously: the records in one array, in no particular
/// order, and a dictionary from ID to position.
///
/// A `Dictionary` of large values keeps empty buckets of the value's full size (up to 2.6 times
/// the records for a queue just past a power of two, and twice that while it grows); here the
/// buckets hold only an ID and a position, and each record takes its own size once. The queue
/// state machine and the interface's queue keep their jobs in one.
public struct JobTable<Record: Identifiable & Sendable>: Sendable where Record.ID == UploadJobID {
    @usableFromInline var records: [Record] = []
    @usableFromInline var positions: [UploadJobID: Int] = [:]

    /// The records, in no particular order (a removal moves the last one into the gap).
    @inlinable public var values: [Record] { records }

    /// Creates an empty table.
    public init() {}

    /// How many records there are.
    @inlinable public var count: Int { records.count }

    /// Whether the table is empty.
    @inlinable public var isEmpty: Bool { records.isEmpty }

    /// The record with an ID; setting nil removes it, setting a record inserts or replaces it.
    ///
    /// - Parameter id: The job's ID; a record set here **must** have this ID.
    @inlinable public subscript(id: UploadJobID) -> Record? {
        get { positions[id].map { records[$0] } }
        set {
            guard let record = newValue else {
                removeValue(forKey: id)
                return
            }
            precondition(record.id == id, "a record stored under another job's ID")
            if let position = positions[id] {
                records[position] = record
            } else {
                positions[id] = records.count
                records.append(record)
            }
        }
    }

    /// Makes room for `additional` more records at once, so a long batch does not grow the
    /// table step by step (each step holds the old and the new storage for a moment). Never
    /// shrinks, and grows at least geometrically, so small reservations cost nothing extra.
    ///
    /// - Parameter additional: How many records are about to be added.
    public mutating func reserveCapacity(adding additional: Int) {
        let needed = records.count + additional
        guard needed > records.capacity else { return }
        let capacity = max(needed, records.capacity * 2)
        records.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// Removes the record with an ID.
    ///
    /// - Parameter id: The job's ID.
    /// - Returns: The record, or nil if there was none.
    @inlinable @discardableResult
    public mutating func removeValue(forKey id: UploadJobID) -> Record? {
        guard let position = positions.removeValue(forKey: id) else { return nil }
        let last = records.count - 1
        if position != last {
            records.swapAt(position, last)
            positions[records[position].id] = position
        }
        return records.removeLast()
    }
}

extension JobTable: Equatable where Record: Equatable {
    /// Whether both tables hold the same records under the same IDs, in whatever order.
    public static func == (lhs: JobTable, rhs: JobTable) -> Bool {
        lhs.count == rhs.count && lhs.values.allSatisfy { rhs[$0.id] == $0 }
    }
}

extension JobTable: Hashable where Record: Hashable {
    /// Hashes the records independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for record in values { combined ^= record.hashValue }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
