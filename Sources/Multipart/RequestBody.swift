import FileSystem

/// A request's body as the transport sends it: runs of bytes in memory and ranges of files,
/// their exact total length known before the first byte goes out, and the `Content-Type` that
/// says what they are. It can be produced again from its first byte any number of times (a
/// retry or a re-send).
///
/// This is the seam between what a protocol sends and the transport that sends it:
/// `MultipartBody` produces one (`requestBody`) for a `multipart/form-data` upload; a resumable
/// protocol produces its own (a file's remaining range under `application/offset+octet-stream`,
/// say), and the transport sends it the same way.
public struct RequestBody: Sendable, Hashable {
    /// The default chunk size of `BodyReader.nextChunk()`: 256 KiB.
    public static let defaultChunkSize = 256 * 1024

    /// The body as a list of segments, in wire order.
    public let segments: [BodySegment]
    /// The exact number of bytes the body has.
    public let contentLength: Int64
    /// The request's `Content-Type` header value.
    public let contentType: String

    /// Creates a body from its segments.
    ///
    /// - Parameters:
    ///   - segments: The segments, in order; a file range **must** lie within its file's size.
    ///   - contentType: What the bytes are.
    public init(segments: [BodySegment], contentType: String) {
        for case let .file(snapshot, range) in segments {
            precondition(range.lowerBound >= 0 && range.upperBound <= snapshot.size, "a file range lies outside the file")
        }
        self.segments = segments
        self.contentLength = segments.reduce(0) { $0 + $1.length }
        self.contentType = contentType
    }

    /// The files the body reads, in order.
    public var files: [FileSnapshot] {
        segments.compactMap { segment in
            if case let .file(snapshot, _) = segment { return snapshot }
            return nil
        }
    }

    /// A reader that produces the body from its first byte.
    ///
    /// - Parameter chunkSize: The size of the chunks `nextChunk()` returns.
    /// - Returns: A new reader; it opens each file when it reaches it and must be closed (or
    ///   released) when the request ends.
    public func makeReader(chunkSize: Int = RequestBody.defaultChunkSize) -> BodyReader {
        BodyReader(segments: segments, chunkSize: chunkSize)
    }
}
