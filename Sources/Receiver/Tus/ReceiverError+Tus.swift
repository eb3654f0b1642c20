extension ReceiverError {
    /// Why a tus request (`/files/`) was refused, each with the status it is answered with.
    public enum TusRefusalReason: Sendable, Equatable {
        /// `Tus-Resumable` is missing or names a version other than 1.0.0 (412).
        case unsupportedVersion(String?)
        /// A creation has neither a usable `Upload-Length` (400).
        case invalidUploadLength(String?)
        /// A creation asked for `Upload-Defer-Length`, which this receiver does not offer (400).
        case deferredLengthUnsupported
        /// `Upload-Length` is above `Tus-Max-Size` (`--max-body`) (413).
        case uploadTooLarge(length: Int64, limit: Int64)
        /// `Upload-Metadata` breaks the protocol's rules (400).
        case invalidMetadata(detail: String)
        /// A PATCH (or a creation with a body) is not `application/offset+octet-stream` (415).
        case unsupportedContentType(String?)
        /// A PATCH has no usable `Upload-Offset` (400).
        case invalidOffset(String?)
        /// A PATCH's `Upload-Offset` is not the upload's offset (409).
        case offsetMismatch(expected: Int64, received: Int64)
        /// A PATCH's body would go past `Upload-Length` (413).
        case exceedsLength(length: Int64, offset: Int64, bodyLength: Int64)
        /// `Upload-Checksum` names an algorithm other than sha1 and sha256 (400).
        case unsupportedChecksumAlgorithm(String)
        /// `Upload-Checksum` is malformed (400).
        case invalidChecksum(detail: String)
        /// The PATCH's bytes do not have the digest `Upload-Checksum` gave; they were discarded (460).
        case checksumMismatch(algorithm: String)
        /// No upload has this ID (never created, terminated, or forgotten after a restart) (404).
        case uploadNotFound(id: String)
        /// The upload expired unfinished and was removed (410).
        case uploadExpired(id: String)
        /// Another PATCH or DELETE of the upload is in flight (423).
        case uploadBusy(id: String)

        /// The status the refusal is answered with.
        var httpStatus: Int {
            switch self {
            case .unsupportedVersion: return 412
            case .invalidUploadLength, .deferredLengthUnsupported, .invalidMetadata, .invalidOffset,
                .unsupportedChecksumAlgorithm, .invalidChecksum:
                return 400
            case .uploadTooLarge, .exceedsLength: return 413
            case .unsupportedContentType: return 415
            case .offsetMismatch: return 409
            case .checksumMismatch: return 460
            case .uploadNotFound: return 404
            case .uploadExpired: return 410
            case .uploadBusy: return 423
            }
        }

        /// What happened and what to do, for the answer's `{"error"}` and the log.
        var description: String {
            switch self {
            case .unsupportedVersion(let version):
                return "This tus server speaks tus 1.0.0; send 'Tus-Resumable: 1.0.0' (got \(version.map { "'\($0)'" } ?? "none"))."
            case .invalidUploadLength(let value):
                return "Upload-Length must be the file's size as a decimal number of bytes (got \(value.map { "'\($0)'" } ?? "none"))."
            case .deferredLengthUnsupported:
                return "Upload-Defer-Length is not supported here; send Upload-Length with the file's size."
            case .uploadTooLarge(let length, let limit):
                return "Upload-Length \(length) is above this server's Tus-Max-Size of \(limit) bytes (--max-body)."
            case .invalidMetadata(let detail):
                return "Upload-Metadata is malformed: \(detail); send comma-separated 'key base64value' pairs with unique keys."
            case .unsupportedContentType(let type):
                return "A tus PATCH needs 'Content-Type: application/offset+octet-stream' (got \(type.map { "'\($0)'" } ?? "none"))."
            case .invalidOffset(let value):
                return "Upload-Offset must be a decimal number of bytes (got \(value.map { "'\($0)'" } ?? "none"))."
            case .offsetMismatch(let expected, let received):
                return "Upload-Offset \(received) is not the upload's offset \(expected); ask with HEAD and resume from there."
            case .exceedsLength(let length, let offset, let bodyLength):
                return "A body of \(bodyLength) bytes at offset \(offset) would go past Upload-Length \(length)."
            case .unsupportedChecksumAlgorithm(let algorithm):
                return "Upload-Checksum algorithm '\(algorithm)' is not supported; use one of \(TusChecksum.supportedAlgorithms)."
            case .invalidChecksum(let detail):
                return "Upload-Checksum is malformed: \(detail)."
            case .checksumMismatch(let algorithm):
                return "The PATCH's bytes do not match its Upload-Checksum (\(algorithm)); they were discarded and the offset is unchanged. Send them again."
            case .uploadNotFound(let id):
                return "No upload /files/\(id) here (never created, terminated, or forgotten); create a new one with POST /files/."
            case .uploadExpired(let id):
                return "The upload /files/\(id) expired unfinished and was removed (--tus-expire); create a new one with POST /files/."
            case .uploadBusy(let id):
                return "Another request is writing to /files/\(id); wait for it to end, then ask with HEAD."
            }
        }
    }
}
