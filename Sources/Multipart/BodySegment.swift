/// A run of a body: bytes held in memory (part headers, text values, in-memory files) or a
/// file's whole content, read from disk when streamed.
public enum BodySegment: Sendable, Hashable {
    /// Bytes in memory.
    case bytes([UInt8])
    /// A file's content, exactly `snapshot.size` bytes.
    case file(FileSnapshot)

    /// The segment's length in bytes.
    public var length: Int64 {
        switch self {
        case let .bytes(bytes): return Int64(bytes.count)
        case let .file(snapshot): return snapshot.size
        }
    }
}
