/// Why a header file (`-H @FILE`) could not be used.
public enum HeaderFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, message: String)
    /// A line (counted from 1) is neither `Name: value`, blank, nor a `#` comment. Its content
    /// is not repeated: it may hold a secret.
    case malformedLine(path: String, line: Int)

    public var description: String {
        switch self {
        case let .unreadable(path, message):
            return "-H @\(path): cannot read the header file: \(message)"
        case let .malformedLine(path, line):
            return "-H @\(path): line \(line) is not 'Name: value' (blank lines and lines starting with # are skipped)"
        }
    }
}
