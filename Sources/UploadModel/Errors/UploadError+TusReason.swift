import UploadModel

extension UploadError {
    /// Why a tus upload could not go on, in ways plain HTTP statuses do not say.
    public enum TusReason: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The server at `url` did not answer `OPTIONS` as a tus server (no `Tus-Version`, or a
        /// status such as 404 or 405). Not retried automatically.
        case notATusServer(url: String, status: Int)
        /// A tus job has `count` files where tus sends exactly one (no `--bundle`, no `-F
        /// name=@file`). Not retried automatically.
        case notOneFile(count: Int)
        /// The server speaks tus, but not version 1.0.0 (`offered` lists what it speaks). Not
        /// retried automatically.
        case versionUnsupported(offered: [String])
        /// The server does not offer the `creation` extension, so no upload can be created on
        /// it. Not retried automatically.
        case creationUnsupported(url: String)
        /// The file (`size` bytes) is larger than the server's `Tus-Max-Size`; nothing was sent.
        /// Not retried automatically.
        case fileTooLarge(size: Int64, maximum: Int64)
        /// A `-F` parameter's name cannot be an `Upload-Metadata` key (empty, holding a space or
        /// comma, or given twice: keys are unique). Not retried automatically.
        case metadataKeyInvalid(key: String)
        /// The creation answer (a 201) named no upload URL (`Location`), or one that is not an
        /// `http`/`https` URL. Not retried automatically.
        case locationUnusable(location: String?)
        /// An answer's `Upload-Offset` is missing or impossible (`offset`, nil when missing or not
        /// a number) for `request` (`POST`, `HEAD`, `PATCH`) where the upload stood at
        /// `expected` of `length` bytes. Not retried automatically.
        case offsetInvalid(request: String, offset: Int64?, expected: Int64, length: Int64)
        /// The upload URL answered with an `Upload-Length` other than the file's size: it is some
        /// other upload. Not retried automatically.
        case lengthMismatch(url: String, serverLength: Int64, fileSize: Int64)
        /// The upload URL disappeared (404, 410) again right after a new upload was created for
        /// it. Not retried automatically.
        case uploadVanished(url: String, status: Int)
        /// The server refused `count` chunks in a row (409 Conflict or 460 Checksum Mismatch)
        /// at offset `offset`. Not retried automatically.
        case chunksRefused(count: Int, offset: Int64, status: Int)

        public var description: String {
            switch self {
            case let .notATusServer(url, status):
                return "\(url) is not a tus server (OPTIONS answered \(status) without Tus-Version); check the creation URL"
            case let .notOneFile(count):
                return "a tus upload sends one file, this job has \(count); drop --bundle and -F name=@file parts"
            case let .versionUnsupported(offered):
                return "the server speaks tus \(offered.joined(separator: ", ")), not 1.0.0"
            case let .creationUnsupported(url):
                return "\(url) does not offer tus creation, so no upload can be created there; use a server with the creation extension"
            case let .fileTooLarge(size, maximum):
                return "the file (\(size) bytes) is larger than the server's Tus-Max-Size (\(maximum) bytes); nothing was sent"
            case let .metadataKeyInvalid(key):
                return "the parameter name \(key.debugDescription) cannot be a tus metadata key (empty, with a space or comma, or given twice); rename it"
            case let .locationUnusable(location):
                return "the server created the upload without a usable Location (\(location?.debugDescription ?? "none")); it cannot be continued"
            case let .offsetInvalid(request, offset, expected, length):
                let said = offset.map(String.init) ?? "no Upload-Offset"
                return "the server's answer to \(request) says \(said) where the upload stood at \(expected) of \(length) bytes; the server broke tus"
            case let .lengthMismatch(url, serverLength, fileSize):
                return "the upload \(url) is \(serverLength) bytes long, the file \(fileSize): it belongs to another file"
            case let .uploadVanished(url, status):
                return "the server dropped the new upload \(url) at once (\(status)); check the server"
            case let .chunksRefused(count, offset, status):
                return "the server refused \(count) chunks in a row at byte \(offset) (\(status)); check the server"
            }
        }
    }
}
