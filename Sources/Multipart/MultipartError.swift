import FileSystem

/// Everything that can go wrong while building or streaming a `multipart/form-data` body.
///
/// Each case says what happened and names the part or file it happened to, so one bad file can be
/// reported and skipped while the others go on.
public enum MultipartError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A file part cannot be sent, checked before the body is produced.
    case fileRejected(path: String, reason: FileRejection)
    /// A file changed while (or since) the body was prepared, so the declared length would be wrong.
    case fileChanged(path: String, reason: FileChange)
    /// Reading a file failed part-way through streaming.
    case fileReadFailed(path: String, errno: Int32)
    /// A name, filename, content type or header holds a character it may not hold.
    case invalidText(field: TextField, reason: InvalidText)
    /// An injected boundary is not a valid RFC 2046 boundary.
    case invalidBoundary(String)
    /// The boundary occurs inside in-memory content, so the body would be ambiguous.
    case boundaryInContent(partName: String)

    /// Why a file cannot be part of a form.
    public enum FileRejection: Sendable, Hashable, Codable {
        /// Nothing exists at the path.
        case doesNotExist
        /// The path is a directory.
        case isDirectory
        /// The path is a FIFO, socket or device: reading it could block or never end.
        case notRegularFile(kind: String)
        /// The file exists but this process may not read it.
        case notReadable(errno: Int32)
        /// The file's size could not be determined.
        case sizeUnavailable(errno: Int32)
    }

    /// Which piece of text was invalid.
    public enum TextField: Sendable, Hashable, Codable {
        /// A part's field name.
        case name(String)
        /// A file part's filename.
        case filename(String)
        /// A part's content type.
        case contentType(String)
        /// An extra part header.
        case header(String)
    }

    /// What was wrong with a piece of text.
    public enum InvalidText: Sendable, Hashable, Codable {
        /// It holds a NUL byte, which cannot be sent in a part header.
        case containsNUL
        /// It holds a line break, which would end the header early.
        case containsLineBreak
        /// It is empty where a value is required.
        case empty
        /// It holds a character not allowed in a header name.
        case invalidHeaderName
    }

    /// What happened, naming the path with undecodable bytes as `\xNN`
    /// (``FileSystemName/escaped(_:)``), and what to do.
    public var description: String {
        switch self {
        case let .fileRejected(path, reason):
            return "\(FileSystemName.escaped(path)): \(reason.description)"
        case let .fileChanged(path, reason):
            return "\(FileSystemName.escaped(path)): \(reason.description); queue it again to send its current content"
        case let .fileReadFailed(path, code):
            return "\(FileSystemName.escaped(path)): read failed: \(SystemError.message(for: code))"
        case let .invalidText(field, reason):
            return "\(field.description) \(reason.description)"
        case let .invalidBoundary(boundary):
            return "invalid boundary \"\(boundary)\": use 1 to 70 letters, digits or '()+_,-./:=? (not ending in a space)"
        case let .boundaryInContent(partName):
            return "the boundary occurs in the content of part \"\(partName)\"; use another boundary"
        }
    }
}

extension MultipartError.FileRejection: CustomStringConvertible {
    public var description: String {
        switch self {
        case .doesNotExist: return "no such file"
        case .isDirectory: return "is a directory"
        case let .notRegularFile(kind): return "is a \(kind), not a regular file"
        case let .notReadable(code): return "not readable: \(SystemError.message(for: code))"
        case let .sizeUnavailable(code): return "size unavailable: \(SystemError.message(for: code))"
        }
    }
}

extension MultipartError.TextField: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .name(text): return "field name \(text.debugDescription)"
        case let .filename(text): return "filename \(text.debugDescription)"
        case let .contentType(text): return "content type \(text.debugDescription)"
        case let .header(text): return "part header \(text.debugDescription)"
        }
    }
}

extension MultipartError.InvalidText: CustomStringConvertible {
    public var description: String {
        switch self {
        case .containsNUL: return "contains a NUL byte"
        case .containsLineBreak: return "contains a line break"
        case .empty: return "is empty"
        case .invalidHeaderName: return "is not a valid header name"
        }
    }
}
