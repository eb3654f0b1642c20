import FileSystem
import Synchronization
import Glibc

/// Produces a `RequestBody`'s bytes from the first to the last, in chunks.
///
/// A reader opens each file when it reaches it and closes it when the file is done, on `close()`
/// or when the reader is released, so a cancelled request never leaks a descriptor. Before a file
/// is read its identity, size and modification time are compared with the snapshot taken when the
/// body was prepared, and after its range is read its size and modification time are checked again:
/// any difference fails the stream with `MultipartError.fileChanged`, so a body whose length
/// differs from the declared one is never produced.
///
/// All methods may be called from any thread; calls are serialised by an internal mutex.
public final class BodyReader: Sendable {
    /// The size of the chunks `nextChunk()` returns.
    public let chunkSize: Int
    private let state: Mutex<ReaderState>

    init(segments: [BodySegment], chunkSize: Int) {
        precondition(chunkSize > 0, "chunk size must be positive")
        self.chunkSize = chunkSize
        self.state = Mutex(ReaderState(segments: segments))
    }

    /// The number of bytes produced so far.
    public var bytesProduced: Int64 {
        state.withLock { $0.produced }
    }

    /// Fills `buffer` with the next bytes of the body.
    ///
    /// - Parameter buffer: Where to write; it is filled completely unless the body ends first.
    /// - Returns: The number of bytes written; 0 once the body is complete.
    /// - Throws: `MultipartError.fileChanged` or `.fileReadFailed` naming the file; after an
    ///   error the reader is closed.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MultipartError) -> Int {
        try state.withLock { (state: inout ReaderState) throws(MultipartError) -> Int in
            do throws(MultipartError) {
                return try state.read(into: buffer)
            } catch {
                state.close()
                throw error
            }
        }
    }

    /// The next chunk of at most `chunkSize` bytes.
    ///
    /// - Returns: The chunk, or nil once the body is complete.
    /// - Throws: See `read(into:)`.
    public func nextChunk() throws(MultipartError) -> [UInt8]? {
        var failure: MultipartError?
        let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { storage, count in
            do throws(MultipartError) {
                count = try read(into: UnsafeMutableRawBufferPointer(storage))
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return chunk.isEmpty ? nil : chunk
    }

    /// Closes any open file. Reading after `close()` continues from a reopened file only if the
    /// reader had not yet reached it; callers close when the request is over.
    public func close() {
        state.withLock { $0.close() }
    }
}

/// The mutable state of a `BodyReader`, guarded by its mutex.
struct ReaderState: ~Copyable {
    private let segments: [BodySegment]
    private var segmentIndex = 0
    private var offsetInSegment: Int64 = 0
    private var descriptor: Int32 = -1
    private(set) var produced: Int64 = 0

    init(segments: [BodySegment]) {
        self.segments = segments
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(MultipartError) -> Int {
        var written = 0
        while written < buffer.count, segmentIndex < segments.count {
            let space = buffer.count - written
            switch segments[segmentIndex] {
            case let .bytes(bytes):
                let start = Int(offsetInSegment)
                let count = min(bytes.count - start, space)
                bytes.withUnsafeBytes { source in
                    let target = UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + count)])
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count)]))
                }
                written += count
                advance(by: count, segmentLength: Int64(bytes.count))
            case let .file(snapshot, range):
                if descriptor < 0 { try openFile(snapshot, at: range.lowerBound + offsetInSegment) }
                let wanted = Int(min(Int64(space), Int64(range.count) - offsetInSegment))
                let count = try readFile(snapshot, at: range.lowerBound + offsetInSegment,
                                         into: UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + wanted)]))
                written += count
                offsetInSegment += Int64(count)
                produced += Int64(count)
                if offsetInSegment == Int64(range.count) {
                    try finishFile(snapshot)
                    segmentIndex += 1
                    offsetInSegment = 0
                }
            }
        }
        return written
    }

    mutating func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private mutating func advance(by count: Int, segmentLength: Int64) {
        offsetInSegment += Int64(count)
        produced += Int64(count)
        if offsetInSegment == segmentLength {
            segmentIndex += 1
            offsetInSegment = 0
        }
    }

    /// Opens the file, checked unchanged, at byte `offset`.
    private mutating func openFile(_ snapshot: FileSnapshot, at offset: Int64) throws(MultipartError) {
        descriptor = try FileInspector.openUnchanged(snapshot)
        if offset > 0, lseek(descriptor, off_t(offset), SEEK_SET) < 0 {
            throw .fileReadFailed(path: snapshot.path, errno: errno)
        }
    }

    /// Fills `buffer` from the open file, whose position is `offset`.
    private func readFile(_ snapshot: FileSnapshot, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer)
        throws(MultipartError) -> Int {
        var total = 0
        while total < buffer.count {
            let count = Glibc.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            if count > 0 {
                total += count
            } else if count == 0 {
                throw .fileChanged(path: snapshot.path, reason: .shrank(expected: snapshot.size, read: offset + Int64(total)))
            } else if errno != EINTR {
                throw .fileReadFailed(path: snapshot.path, errno: errno)
            }
        }
        return total
    }

    private mutating func finishFile(_ snapshot: FileSnapshot) throws(MultipartError) {
        defer { close() }
        try FileInspector.checkUnchangedAfterReading(descriptor, snapshot)
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}
