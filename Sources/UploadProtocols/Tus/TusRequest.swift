import FileSystem
import Multipart
import UploadModel

/// One request of a tus upload, as `TusClientStateMachine` decides it: method, URL, the tus
/// headers, and the file's byte range it carries. The executor adds Ferry's own headers and the
/// user's (`RequestHeaders`), `Content-Type: application/offset+octet-stream` when bytes go, and
/// `Upload-Checksum` when `checksum` is set (it hashes `range` first).
public struct TusRequest: Sendable, Hashable {
    /// What a request is for.
    public enum Purpose: String, Sendable, Hashable {
        /// `OPTIONS` to the creation URL: the server's version, extensions and limits.
        case discover
        /// `POST` to the creation URL: a new upload (with its first chunk under
        /// `creation-with-upload`).
        case create
        /// `HEAD` to the upload URL: where the upload stands.
        case locate
        /// `PATCH` to the upload URL: a chunk at the confirmed offset.
        case append
        /// `DELETE` to the upload URL: a cancelled job's upload is removed (`termination`).
        case terminate
    }

    /// The media type of a tus body.
    public static let bodyContentType = "application/offset+octet-stream"

    /// What the request is for.
    public var purpose: Purpose
    /// Where it goes.
    public var target: UploadTarget
    /// The tus headers (`Tus-Resumable` first), in wire order.
    public var headers: [HeaderField]
    /// The file's bytes it carries; empty for none.
    public var range: Range<Int64>
    /// The algorithm of the chunk's `Upload-Checksum`, if one is sent.
    public var checksum: TusChecksumAlgorithm?

    /// The HTTP method.
    public var method: String {
        switch purpose {
        case .discover: return "OPTIONS"
        case .create: return "POST"
        case .locate: return "HEAD"
        case .append: return "PATCH"
        case .terminate: return "DELETE"
        }
    }
}

extension TusRequest {
    /// The request as it is sent: the job's headers (`base`, made for the creation URL: `Host`
    /// for this request's server and credentials dropped for another origin, as a redirect
    /// does), then the tus headers, the checksum, and the body's type (when bytes go) and exact
    /// length (always, so nothing is sent chunked).
    ///
    /// - Parameters:
    ///   - base: The job's message for the creation URL; its `Content-Type` and
    ///     `Content-Length` are replaced.
    ///   - file: The file the range is of.
    ///   - checksum: The `Upload-Checksum` value, if one is sent.
    /// - Returns: The message.
    public func message(sharing base: RequestMessage, file: FileSnapshot, checksum: String? = nil) -> RequestMessage {
        var headers = RedirectPolicy.headers(base.headers, from: base.target, to: target).filter {
            let name = $0.name.lowercased()
            return name != "content-type" && name != "content-length"
        }
        headers += self.headers
        if let checksum { headers.append(HeaderField(name: "Upload-Checksum", value: checksum)) }
        let segments: [BodySegment] = range.isEmpty ? [] : [.file(file, range: range)]
        let body = RequestBody(segments: segments, contentType: Self.bodyContentType)
        if !segments.isEmpty { headers.append(HeaderField(name: "Content-Type", value: body.contentType)) }
        headers.append(HeaderField(name: "Content-Length", value: String(body.contentLength)))
        return RequestMessage(method: method, target: target, headers: headers, body: body)
    }
}
