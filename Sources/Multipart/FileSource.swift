/// Where a file part's bytes come from.
public enum FileSource: Sendable, Hashable, Codable {
    /// A file on disk, read in chunks while the body streams; never loaded whole.
    case path(String)
    /// Bytes in memory.
    case bytes([UInt8])
}
