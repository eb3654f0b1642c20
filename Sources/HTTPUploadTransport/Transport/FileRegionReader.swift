import FileSystem
import Multipart
import NIOCore
import Synchronization
import Glibc

/// Produces a body's writes for a plain-TCP connection, in the order `FileRegionCursor` gives:
/// bytes and read file stretches as `ByteBuffer`s, the rest of large files as `FileRegion`s the
/// kernel sends with `sendfile`.
///
/// Files are checked as `BodyReader` checks them: unchanged when opened
/// (`FileInspector.openUnchanged`), and once their last bytes were read — after every region of
/// the file was written, when the pump asks for the read only then — unchanged since
/// (`FileInspector.checkUnchangedAfterReading`), before those bytes are handed over. Errors are
/// the same `MultipartError`s.
///
/// Each region holds a duplicate of the file's descriptor in its `NIOFileHandle`, which whoever
/// takes the region **must** close once its write completed, failed, or will never happen
/// (`IOData.closeFileHandle()`): the reader's own descriptor can then close at any time without
/// a queued region writing from a closed (or reused) descriptor. `close()` closes the reader's
/// own. Called on the pump's queue; calls are serialised by a mutex.
final class FileRegionReader: Sendable {
    private struct State: ~Copyable {
        var cursor: FileRegionCursor
        /// The open file: the segment's index and its descriptor.
        var open: (segment: Int, descriptor: Int32)?

        mutating func closeFile() {
            if let open { _ = Glibc.close(open.descriptor) }
            open = nil
        }

        deinit {
            if let open { _ = Glibc.close(open.descriptor) }
        }
    }

    private let segments: [BodySegment]
    private let state: Mutex<State>

    /// Creates a reader at the body's first byte.
    ///
    /// - Parameters:
    ///   - segments: The body's segments.
    ///   - bufferSize: The most bytes per buffer, and a file's last stretch (read, not a region).
    init(segments: [BodySegment], bufferSize: Int) {
        self.segments = segments
        self.state = Mutex(State(cursor: FileRegionCursor(segments: segments, bufferSize: bufferSize)))
    }

    /// The next write of the body.
    ///
    /// - Parameter regionSize: The most bytes a region may hold (`FileRegionSizing`).
    /// - Returns: The piece, nil after the body's end (a region is the caller's to close), and
    ///   whether the following piece may be read ahead: not after a file's last region, since the
    ///   read after it checks the file, which must wait until the regions were written.
    /// - Throws: `MultipartError.fileChanged` or `.fileReadFailed` naming the file; the file is
    ///   closed then.
    func next(regionSize: Int64) throws(MultipartError) -> (data: IOData?, readsAhead: Bool) {
        try state.withLock { (state: inout State) throws(MultipartError) -> (data: IOData?, readsAhead: Bool) in
            do throws(MultipartError) {
                while let piece = state.cursor.next(regionSize: regionSize) {
                    guard let data = try produce(piece, state: &state) else { continue }
                    guard case .region = piece else { return (data, true) }
                    var following = state.cursor
                    if case .region? = following.next(regionSize: regionSize) { return (data, true) }
                    return (data, false)
                }
                return (nil, true)
            } catch {
                state.closeFile()
                throw error
            }
        }
    }

    /// Closes the file open, if any.
    func close() {
        state.withLock { $0.closeFile() }
    }

    /// Carries out a piece; nil for an empty one (an empty file, opened and checked).
    private func produce(_ piece: FileRegionCursor.Piece, state: inout State) throws(MultipartError) -> IOData? {
        switch piece {
        case let .bytes(segment, range):
            guard case let .bytes(bytes) = segments[segment] else { preconditionFailure("a bytes piece of a file") }
            return .byteBuffer(ByteBuffer(bytes: bytes[range]))
        case let .region(segment, range):
            let (snapshot, descriptor) = try openFile(segment, state: &state)
            let duplicate = dup(descriptor)
            guard duplicate >= 0 else { throw .fileReadFailed(path: snapshot.path, errno: errno) }
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: duplicate)
            return .fileRegion(FileRegion(fileHandle: handle, readerIndex: Int(range.lowerBound), endIndex: Int(range.upperBound)))
        case let .read(segment, range, checksFile):
            let (snapshot, descriptor) = try openFile(segment, state: &state)
            let buffer = try Self.read(descriptor, snapshot, range: range)
            if checksFile {
                try FileInspector.checkUnchangedAfterReading(descriptor, snapshot)
                state.closeFile()
            }
            return buffer.readableBytes == 0 ? nil : .byteBuffer(buffer)
        }
    }

    /// The descriptor of segment `segment`'s file, opened (checked unchanged) if it is not open.
    private func openFile(_ segment: Int, state: inout State) throws(MultipartError) -> (FileSnapshot, Int32) {
        guard case let .file(snapshot, _) = segments[segment] else { preconditionFailure("a file piece of bytes") }
        if let open = state.open, open.segment == segment { return (snapshot, open.descriptor) }
        state.closeFile()
        let descriptor = try FileInspector.openUnchanged(snapshot)
        state.open = (segment, descriptor)
        return (snapshot, descriptor)
    }

    /// Reads file offsets `range` whole; the file ending first means it shrank.
    private static func read(_ descriptor: Int32, _ snapshot: FileSnapshot, range: Range<Int64>) throws(MultipartError) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: range.count)
        var failure: MultipartError?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { space in
            var total = 0
            while total < range.count {
                let count = pread(descriptor, space.baseAddress! + total, range.count - total, off_t(range.lowerBound) + off_t(total))
                if count > 0 {
                    total += count
                } else if count == 0 {
                    failure = .fileChanged(path: snapshot.path,
                                           reason: .shrank(expected: snapshot.size, read: range.lowerBound + Int64(total)))
                    break
                } else if errno != EINTR {
                    failure = .fileReadFailed(path: snapshot.path, errno: errno)
                    break
                }
            }
            return total
        }
        if let failure { throw failure }
        return buffer
    }
}
