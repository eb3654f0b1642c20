extension RequestBody {
    /// The body's bytes from `offset` on, as a body of their own: what a resumed request sends
    /// once the server has the first `offset` bytes. Segments before `offset` are left out, the
    /// one it falls in is cut, file ranges stay file ranges (read from disk, checked as before).
    ///
    /// - Parameters:
    ///   - offset: Where the new body starts; **must** lie in `0...contentLength`.
    ///   - contentType: What the bytes are now (a resumed request's own type).
    /// - Returns: The body from `offset`.
    public func suffix(from offset: Int64, contentType: String) -> RequestBody {
        precondition(offset >= 0 && offset <= contentLength, "a body's suffix starts inside the body")
        var skip = offset
        var kept: [BodySegment] = []
        for segment in segments {
            let length = segment.length
            if skip >= length {
                skip -= length
                continue
            }
            switch segment {
            case let .bytes(bytes):
                kept.append(.bytes(Array(bytes[Int(skip)...])))
            case let .file(snapshot, range):
                kept.append(.file(snapshot, range: (range.lowerBound + skip)..<range.upperBound))
            }
            skip = 0
        }
        return RequestBody(segments: kept, contentType: contentType)
    }
}
