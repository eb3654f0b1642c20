import FileSystem

/// A run of a body: bytes held in memory (part headers, text values, in-memory files) or a
/// range of a file's content, read from disk when streamed.
public enum BodySegment: Sendable, Hashable {
    /// Bytes in memory.
    case bytes([UInt8])
    /// The bytes of a file at offsets `range` (the whole file: `0..<snapshot.size`); the file is
    /// checked against `snapshot` when it is opened and once its range has been read.
    case file(FileSnapshot, range: Range<Int64>)

    /// A file's whole content.
    ///
    /// - Parameter snapshot: The file.
    /// - Returns: The segment for bytes `0..<snapshot.size`.
    public static func wholeFile(_ snapshot: FileSnapshot) -> BodySegment {
        .file(snapshot, range: 0..<snapshot.size)
    }

    /// The segment's length in bytes.
    public var length: Int64 {
        switch self {
        case let .bytes(bytes): return Int64(bytes.count)
        case let .file(_, range): return Int64(range.count)
        }
    }
}
