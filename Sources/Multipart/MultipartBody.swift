/// A prepared `multipart/form-data` body: its exact length is known before the first byte is
/// produced, and it can be produced again from the start any number of times (a retry re-sends it).
///
/// The body holds part headers and text in memory and only the paths of files; file content is
/// read chunk by chunk when a reader streams it, so memory does not grow with file size.
public struct MultipartBody: Sendable, Hashable {
    /// The default chunk size of `MultipartBodyReader.nextChunk()`: 256 KiB.
    public static let defaultChunkSize = 256 * 1024

    /// The boundary between parts.
    public let boundary: Boundary
    /// The body as a list of segments, in wire order.
    public let segments: [BodySegment]
    /// The exact number of bytes the body has.
    public let contentLength: Int64

    /// Creates a body from its segments.
    ///
    /// - Parameters:
    ///   - boundary: The boundary the segments were encoded with.
    ///   - segments: The segments, in order.
    init(boundary: Boundary, segments: [BodySegment]) {
        self.boundary = boundary
        self.segments = segments
        self.contentLength = segments.reduce(0) { $0 + $1.length }
    }

    /// The request's `Content-Type` header value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary.value)" }

    /// The files the body reads, in order.
    public var files: [FileSnapshot] {
        segments.compactMap { segment in
            if case let .file(snapshot) = segment { return snapshot }
            return nil
        }
    }

    /// A reader that produces the body from its first byte.
    ///
    /// - Parameter chunkSize: The size of the chunks `nextChunk()` returns.
    /// - Returns: A new reader; it opens each file when it reaches it and must be closed (or
    ///   released) when the request ends.
    public func makeReader(chunkSize: Int = MultipartBody.defaultChunkSize) -> MultipartBodyReader {
        MultipartBodyReader(body: self, chunkSize: chunkSize)
    }
}
