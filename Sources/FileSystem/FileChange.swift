/// How a file differs from what ``FileStamp`` recorded of it: when a body was prepared, or when its job
/// was queued.
public enum FileChange: Sendable, Hashable, Codable {
    /// The file's size is not the size it had when the body's length was computed.
    case sizeChanged(expected: Int64, actual: Int64)
    /// The file ended before its declared length was read.
    case shrank(expected: Int64, read: Int64)
    /// The file grew past its declared length while it was read.
    case grew(expected: Int64, actual: Int64)
    /// The file was modified (its modification time changed) while it was read.
    case modified
    /// The path now names a different file, or nothing.
    case replaced
}

extension FileChange: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .sizeChanged(expected, actual): return "size changed from \(expected) to \(actual) bytes"
        case let .shrank(expected, read): return "shrank while being sent (ended after \(read) of \(expected) bytes)"
        case let .grew(expected, actual): return "grew while being sent (\(expected) bytes declared, now \(actual))"
        case .modified: return "was modified while being sent"
        case .replaced: return "was replaced or removed"
        }
    }
}
