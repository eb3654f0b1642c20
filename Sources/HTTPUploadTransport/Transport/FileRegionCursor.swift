import Multipart

/// The writes of a body sent to a plain-TCP socket whose large files go by `sendfile`: each
/// `.bytes` segment in buffers, each large file as file regions the kernel sends from the page
/// cache, and every file's last bytes (a whole small file) read into memory, so the reader can
/// check that the file did not change while it was sent before those bytes go out — the
/// guarantee the buffered path gives.
///
/// Pure: no I/O. `FileRegionReader` carries the pieces out.
struct FileRegionCursor: Sendable {
    /// One write of the body.
    enum Piece: Equatable, Sendable {
        /// Bytes of the `.bytes` segment at index `segment`.
        case bytes(segment: Int, range: Range<Int>)
        /// File bytes the kernel sends from the file itself, at file offsets `range`.
        case region(segment: Int, range: Range<Int64>)
        /// File bytes read into memory, at file offsets `range`; `checksFile`: the file's last
        /// bytes, written only once the file was checked unchanged after they were read.
        case read(segment: Int, range: Range<Int64>, checksFile: Bool)
    }

    private let segments: [BodySegment]
    private let bufferSize: Int64
    private var index = 0
    /// Bytes of the current segment already handed out.
    private var offset: Int64 = 0

    /// Starts at the body's first byte.
    ///
    /// - Parameters:
    ///   - segments: The body's segments.
    ///   - bufferSize: The most bytes per buffer (`bytes` and `read` pieces), and the length of a
    ///     file's last stretch, read rather than sent as a region.
    init(segments: [BodySegment], bufferSize: Int) {
        precondition(bufferSize > 0, "buffer size must be positive")
        self.segments = segments
        self.bufferSize = Int64(bufferSize)
    }

    /// Whether a body of `segments` has a file large enough for a region (one longer than two
    /// buffers: its last buffer is always read).
    ///
    /// - Parameters:
    ///   - segments: The body's segments.
    ///   - bufferSize: As for `init`.
    /// - Returns: Whether any piece would be a region.
    static func hasRegions(_ segments: [BodySegment], bufferSize: Int) -> Bool {
        segments.contains { segment in
            if case let .file(_, range) = segment { return Int64(range.count) >= 2 * Int64(bufferSize) }
            return false
        }
    }

    /// The next piece, nil after the body's last.
    ///
    /// - Parameter regionSize: The most bytes a region may hold now (`FileRegionSizing`).
    /// - Returns: The piece; an empty file is one empty `read`, so it is still opened and checked.
    mutating func next(regionSize: Int64) -> Piece? {
        while index < segments.count {
            switch segments[index] {
            case let .bytes(bytes):
                let length = Int64(bytes.count)
                guard offset < length else {
                    advanceSegment()
                    continue
                }
                let end = min(length, offset + bufferSize)
                defer { offset = end }
                return .bytes(segment: index, range: Int(offset)..<Int(end))
            case let .file(_, range):
                let length = Int64(range.count)
                let piece: Piece
                let end: Int64
                let lastStretch = max(0, length - bufferSize)
                if offset < lastStretch, lastStretch >= bufferSize {
                    end = min(lastStretch, offset + max(1, regionSize))
                    piece = .region(segment: index, range: (range.lowerBound + offset)..<(range.lowerBound + end))
                } else {
                    end = min(length, offset + bufferSize)
                    piece = .read(segment: index, range: (range.lowerBound + offset)..<(range.lowerBound + end),
                                  checksFile: end == length)
                }
                if end == length {
                    advanceSegment()
                } else {
                    offset = end
                }
                return piece
            }
        }
        return nil
    }

    private mutating func advanceSegment() {
        index += 1
        offset = 0
    }
}
