import FileSystem
import Glibc

/// Everything that can go wrong in the receiving server, as one error type with nested reasons.
///
/// Request-level failures (``requestRejected(reason:)``) become HTTP error responses with a JSON
/// body `{"error": "..."}`; the others are thrown to whoever starts or configures the server.
public enum ReceiverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration cannot be used; nothing was started.
    case invalidConfiguration(reason: ConfigurationFailureReason)
    /// The server could not be started or stopped.
    case serverFailed(reason: ServerFailureReason)
    /// An upload request was refused; the request wrote nothing that stays on disk.
    case requestRejected(reason: RequestRejectionReason)
    /// Writing an uploaded file to the upload directory failed.
    case storageFailed(reason: StorageFailureReason)
    /// A tus request was refused; the upload's stored bytes are unchanged.
    case tusRefused(reason: TusRefusalReason)

    /// Why a ``ReceiverConfiguration`` cannot be used.
    public enum ConfigurationFailureReason: Sendable, Equatable {
        /// A probability option is outside `0...1`.
        case probabilityOutOfRange(option: String, value: Double)
        /// A numeric option is outside the range it accepts.
        case valueOutOfRange(option: String, value: Int64, allowed: ClosedRange<Int64>)
        /// The `--status` code is not a final HTTP status code (200–599).
        case invalidStatusCode(Int)
        /// The upload directory could not be created or is not a directory.
        case uploadDirectoryUnusable(path: String, errno: Int32)
        /// The address is reachable from other machines and neither a token nor `--no-auth` was given.
        case tokenRequired(host: String)
        /// The token cannot be sent in a header (empty, or holding spaces or control characters).
        case tokenUnusable(detail: String)
        /// The connection and upload limits need more file descriptors than the process may open.
        case descriptorsTooFew(connections: Int, uploads: Int, needed: Int, limit: Int)
    }

    /// Why the server could not start or stop.
    public enum ServerFailureReason: Sendable, Equatable {
        /// Binding or listening on the address failed.
        case bindFailed(host: String, port: Int, description: String)
        /// The server stopped before it reported a listening address.
        case stoppedBeforeListening(description: String)
    }

    /// Why an upload request was refused, each with the HTTP status it is answered with.
    public enum RequestRejectionReason: Sendable, Equatable {
        /// The `Content-Type` is not `multipart/form-data` (415).
        case unsupportedContentType(String?)
        /// The `Content-Type` is `multipart/form-data` but has no usable boundary (400).
        case missingBoundary
        /// `Content-Length` or the bytes actually read exceed the body limit (413).
        case bodyTooLarge(limit: Int64)
        /// `Content-Length` is not a decimal number of bytes (400).
        case invalidContentLength(String)
        /// `Transfer-Encoding` names a coding other than `chunked` alone, as sent (501).
        case unsupportedTransferCoding(String)
        /// The body has more parts than allowed (413).
        case tooManyParts(limit: Int)
        /// A text field is larger than allowed (413).
        case fieldTooLarge(name: String, limit: Int)
        /// The part headers are malformed or too long (400).
        case malformedPartHeaders(detail: String)
        /// The body is not valid multipart syntax (400).
        case malformedBody(detail: String)
        /// The body ended before the closing boundary (400).
        case missingClosingBoundary
        /// Fewer bytes arrived than `Content-Length` announced, or the connection ended early (400).
        case truncatedBody(received: Int64, expected: Int64?)
        /// Fault injection answered with an error status on purpose.
        case injectedFailure(status: Int, detail: String)
        /// The request lacks the receiver's token (401).
        case unauthorized
        /// The request head did not arrive within the header timeout (408).
        case headerTimedOut(limit: Duration)
        /// No body bytes arrived for the body timeout (408).
        case bodyTimedOut(limit: Duration)
        /// The body arrived slower than the minimum rate over a window of waiting (408).
        case bodyTooSlow(received: Int64, window: Duration, minimumRate: Int)
        /// As many upload files as allowed are open, so a file part (or tus PATCH) cannot open
        /// its own (503, `Retry-After`).
        case tooManyUploads(limit: Int)
        /// `Idempotency-Key` is not a key: empty, over 255 characters, or not visible ASCII (400).
        case invalidIdempotencyKey
        /// A request with the same `Idempotency-Key` is being received now (409, the draft's answer).
        case idempotencyKeyInUse
        /// The `Idempotency-Key` was used before for a request to another path or of another
        /// length (422, the draft's answer).
        case idempotencyKeyReused
        /// A `PATCH` to a resumable upload without `Upload-Offset` and `Upload-Complete` (400).
        case resumptionFieldsMissing
        /// A `PATCH`'s `Upload-Offset` is not the upload's (409, with the upload's offset).
        case resumptionOffsetMismatch(sent: Int64, actual: Int64)
        /// A `PATCH` to a resumable upload that is complete already (409).
        case resumptionComplete
        /// No resumable upload has this URL: it completed long ago, expired or was removed (404).
        case resumableUploadUnknown
    }

    /// Why an uploaded file could not be stored.
    public enum StorageFailureReason: Sendable, Equatable {
        /// `open(2)` failed for a reason other than the name being taken.
        case createFailed(name: String, errno: Int32)
        /// Every candidate name (`name`, `name-1`, …) was taken.
        case noFreeName(base: String)
        /// `write(2)` failed.
        case writeFailed(name: String, errno: Int32)
        /// The disk or the quota of the upload directory is full (`ENOSPC`, `EDQUOT`) (507).
        case outOfSpace(name: String, errno: Int32)
        /// The disk or the quota filled up while a tus PATCH wrote to upload `id`, which was
        /// removed for it: its bytes, its info and its state (507; 404 from then on).
        case outOfSpaceUploadRemoved(id: String, errno: Int32)
    }

    /// The HTTP status a request-level error is answered with (507 for a full disk, 500 for
    /// other storage failures).
    public var httpStatus: Int {
        switch self {
        case .requestRejected(let reason):
            switch reason {
            case .unsupportedContentType: return 415
            case .bodyTooLarge, .tooManyParts, .fieldTooLarge: return 413
            case .missingBoundary, .invalidContentLength, .malformedPartHeaders, .malformedBody, .missingClosingBoundary,
                .truncatedBody, .invalidIdempotencyKey:
                return 400
            case .idempotencyKeyInUse, .resumptionOffsetMismatch, .resumptionComplete: return 409
            case .idempotencyKeyReused: return 422
            case .resumptionFieldsMissing: return 400
            case .resumableUploadUnknown: return 404
            case .unsupportedTransferCoding: return 501
            case .injectedFailure(let status, _): return status
            case .unauthorized: return 401
            case .headerTimedOut, .bodyTimedOut, .bodyTooSlow: return 408
            case .tooManyUploads: return 503
            }
        case .storageFailed(.outOfSpace), .storageFailed(.outOfSpaceUploadRemoved): return 507
        case .storageFailed: return 500
        case .tusRefused(let reason): return reason.httpStatus
        case .invalidConfiguration, .serverFailed: return 500
        }
    }

    /// A duration in seconds as people write it: `20 s`, `0.5 s`.
    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }

    /// A user-facing sentence: what happened and what to do about it.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason):
            switch reason {
            case .probabilityOutOfRange(let option, let value):
                return "\(option) must be between 0 and 1, got \(value)."
            case .valueOutOfRange(let option, let value, let allowed):
                return "\(option) must be between \(allowed.lowerBound) and \(allowed.upperBound), got \(value)."
            case .invalidStatusCode(let code):
                return "--status must be a final HTTP status code between 200 and 599, got \(code)."
            case .uploadDirectoryUnusable(let path, let errno):
                return "The upload directory \(FileSystemName.escaped(path)) cannot be created or used (errno \(errno)); choose another --dir."
            case .tokenRequired(let host):
                return "--host \(host) can be reached from other machines: give --token (or --token-file, or FERRY_SERVE_TOKEN) so only clients with it may upload and list, or --no-auth to let anyone."
            case .tokenUnusable(let detail):
                return "The token cannot be used: \(detail)."
            case .descriptorsTooFew(let connections, let uploads, let needed, let limit):
                return "\(connections) connections and \(uploads) uploads at once need \(needed) file descriptors, but the process may open \(limit) (ulimit -n); lower --max-connections or --max-uploads, or raise the limit."
            }
        case .serverFailed(let reason):
            switch reason {
            case .bindFailed(let host, let port, let description):
                return "Could not listen on \(host):\(port) (\(description)); pick another --host or --port (0 picks a free port)."
            case .stoppedBeforeListening(let description):
                return "The server stopped before it was listening: \(description)."
            }
        case .requestRejected(let reason):
            switch reason {
            case .unsupportedContentType(let type):
                return "Unsupported Content-Type \(type.map { "'\($0)'" } ?? "(none)"); send multipart/form-data, e.g. curl -F file=@photo.jpg."
            case .missingBoundary:
                return "The multipart/form-data Content-Type has no boundary parameter."
            case .bodyTooLarge(let limit):
                return "The request body is larger than the limit of \(limit) bytes; send less or raise --max-body."
            case .invalidContentLength(let value):
                return "Content-Length '\(value)' is not a number of bytes; send the body's size in decimal digits."
            case .unsupportedTransferCoding(let coding):
                return "Transfer-Encoding '\(coding)' is not implemented here, only 'chunked' alone; send the body as it is, chunked or with a Content-Length."
            case .tooManyParts(let limit):
                return "The request has more than \(limit) parts; send fewer or raise --max-parts."
            case .fieldTooLarge(let name, let limit):
                return "The text field '\(name)' is larger than \(limit) bytes; send it as a file instead."
            case .malformedPartHeaders(let detail):
                return "A part's headers are malformed: \(detail)."
            case .malformedBody(let detail):
                return "The multipart body is malformed: \(detail)."
            case .missingClosingBoundary:
                return "The multipart body ended without its closing boundary; the upload was incomplete."
            case .truncatedBody(let received, let expected):
                if let expected {
                    return "The body ended after \(received) of \(expected) bytes; the upload was incomplete."
                }
                return "The connection ended after \(received) bytes, before the body was complete."
            case .injectedFailure(_, let detail):
                return detail
            case .unauthorized:
                return "This receiver needs its token: send 'Authorization: Bearer TOKEN' (ferry send --oauth2-bearer, curl --oauth2-bearer) or Basic with the token as password (curl -u any:TOKEN)."
            case .headerTimedOut(let limit):
                return "The request head did not arrive within \(Self.seconds(limit)) (--header-timeout); the connection is closed."
            case .bodyTimedOut(let limit):
                return "No body bytes arrived for \(Self.seconds(limit)) (--body-timeout); the upload was incomplete and nothing was kept."
            case .bodyTooSlow(let received, let window, let minimumRate):
                return "The body arrived too slowly: \(received) bytes in \(Self.seconds(window)), under the minimum of \(minimumRate) bytes a second (--min-body-rate); nothing was kept."
            case .tooManyUploads(let limit):
                return "The receiver already has \(limit) upload files open at once (--max-uploads); try again shortly (Retry-After)."
            case .invalidIdempotencyKey:
                return "Idempotency-Key must be a quoted string of 1 to 255 visible ASCII characters without quotes or backslashes."
            case .idempotencyKeyInUse:
                return "An upload with this Idempotency-Key is being received now; try again once it has been answered (Retry-After)."
            case .idempotencyKeyReused:
                return "This Idempotency-Key was used for another request (another path or length); use a new key for a new upload."
            case .resumptionFieldsMissing:
                return "A PATCH to a resumable upload needs Upload-Offset (a number of bytes) and Upload-Complete (?1 or ?0)."
            case .resumptionOffsetMismatch(let sent, let actual):
                return "Upload-Offset \(sent) is not this upload's offset: it holds \(actual) bytes (HEAD says so); send the rest from there."
            case .resumptionComplete:
                return "This resumable upload is complete already; nothing more can be appended."
            case .resumableUploadUnknown:
                return "No such resumable upload: it completed long ago, expired or was removed; send the request again whole."
            }
        case .storageFailed(let reason):
            switch reason {
            case .createFailed(let name, let errno):
                return "Could not create '\(name)' in the upload directory (errno \(errno))."
            case .noFreeName(let base):
                return "Every name derived from '\(base)' is taken in the upload directory."
            case .writeFailed(let name, let errno):
                return "Could not write '\(name)' in the upload directory (errno \(errno)); is the disk full?"
            case .outOfSpace(let name, let errno):
                let what = errno == EDQUOT ? "the disk quota of the upload directory is used up" : "the upload directory's disk is full"
                return "Insufficient storage: \(what) (errno \(errno)) while saving '\(FileSystemName.escaped(name))'; the partial file was removed and nothing of this upload was kept. Free space on the server, then send again."
            case .outOfSpaceUploadRemoved(let id, let errno):
                let what = errno == EDQUOT ? "the disk quota of the upload directory is used up" : "the upload directory's disk is full"
                return "Insufficient storage: \(what) (errno \(errno)) while writing /files/\(id); the upload was removed for lack of space, with every byte it had, and cannot be resumed (HEAD answers 404). Free space on the server, then create a new upload with POST /files/."
            }
        case .tusRefused(let reason):
            return reason.description
        }
    }
}
