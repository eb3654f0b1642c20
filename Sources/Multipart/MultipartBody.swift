import FileSystem

/// A prepared `multipart/form-data` body: its exact length is known before the first byte is
/// produced, and it can be produced again from the start any number of times (a retry re-sends it).
///
/// The body holds part headers and text in memory and only the paths of files; file content is
/// read chunk by chunk when a reader streams it, so memory does not grow with file size. What the
/// transport sends is its `requestBody`.
public struct MultipartBody: Sendable, Hashable {
    /// The boundary between parts.
    public let boundary: Boundary
    /// The body as the transport sends it, typed `multipart/form-data` with the boundary.
    public let requestBody: RequestBody

    /// Creates a body from its segments.
    ///
    /// - Parameters:
    ///   - boundary: The boundary the segments were encoded with.
    ///   - segments: The segments, in order.
    init(boundary: Boundary, segments: [BodySegment]) {
        self.boundary = boundary
        self.requestBody = RequestBody(segments: segments, contentType: "multipart/form-data; boundary=\(boundary.value)")
    }

    /// The body as a list of segments, in wire order.
    public var segments: [BodySegment] { requestBody.segments }

    /// The exact number of bytes the body has.
    public var contentLength: Int64 { requestBody.contentLength }

    /// The request's `Content-Type` header value.
    public var contentType: String { requestBody.contentType }

    /// The files the body reads, in order.
    public var files: [FileSnapshot] { requestBody.files }

    /// A reader that produces the body from its first byte.
    ///
    /// - Parameter chunkSize: The size of the chunks `nextChunk()` returns.
    /// - Returns: A new reader (see `RequestBody.makeReader(chunkSize:)`).
    public func makeReader(chunkSize: Int = RequestBody.defaultChunkSize) -> BodyReader {
        requestBody.makeReader(chunkSize: chunkSize)
    }
}
