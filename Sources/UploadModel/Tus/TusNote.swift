import FoundationEssentials

/// A fact of a tus upload worth showing in the job's details: the tus client keeps them in its checkpoint.
public enum TusNote: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The server created the upload at `url`.
    case created(url: String)
    /// The server said the upload stood at `offset` of `length` bytes (`HEAD`), and it went on
    /// from there.
    case resumed(offset: Int64, length: Int64)
    /// The upload at `url` was gone (`status` 404 or 410), so a new one was started from 0.
    case restarted(url: String, status: Int)

    public var description: String {
        switch self {
        case let .created(url):
            return "upload created at \(url)"
        case let .resumed(offset, length):
            let percent = length == 0 ? 100 : Int(offset * 100 / length)
            return "resumed at \(percent) % (byte \(offset) of \(length))"
        case let .restarted(url, status):
            return "the upload \(url) was gone (\(status)); started a new one from byte 0"
        }
    }
}
