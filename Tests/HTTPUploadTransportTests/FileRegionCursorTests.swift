import FileSystem
import Multipart
import Testing
@testable import HTTPUploadTransport

/// `FileRegionCursor`: which bytes go as buffers, which as file regions, and where a file is
/// checked — without I/O.
@Suite("File region cursor")
struct FileRegionCursorTests {
    private typealias Piece = FileRegionCursor.Piece

    private static func file(size: Int64) -> FileSnapshot {
        FileSnapshot(path: "/f", stamp: FileStamp(size: size, modificationTimeNanoseconds: 0))
    }

    private static func pieces(_ segments: [BodySegment], bufferSize: Int, regionSize: Int64) -> [Piece] {
        var cursor = FileRegionCursor(segments: segments, bufferSize: bufferSize)
        var pieces: [Piece] = []
        while let piece = cursor.next(regionSize: regionSize) { pieces.append(piece) }
        return pieces
    }

    @Test("a large file goes as regions up to its last buffer, which is read and checks the file; bytes around it as buffers")
    func largeFile() {
        let segments: [BodySegment] = [.bytes(Array(repeating: 1, count: 6)), .wholeFile(Self.file(size: 20)), .bytes([2, 3, 4])]
        #expect(Self.pieces(segments, bufferSize: 4, regionSize: 6) == [
            .bytes(segment: 0, range: 0..<4), .bytes(segment: 0, range: 4..<6),
            .region(segment: 1, range: 0..<6), .region(segment: 1, range: 6..<12), .region(segment: 1, range: 12..<16),
            .read(segment: 1, range: 16..<20, checksFile: true),
            .bytes(segment: 2, range: 0..<3),
        ])
    }

    @Test("a file range's offsets are the file's (a tus chunk)")
    func fileRange() {
        let segments: [BodySegment] = [.file(Self.file(size: 100), range: 10..<30)]
        #expect(Self.pieces(segments, bufferSize: 4, regionSize: 100) == [
            .region(segment: 0, range: 10..<26), .read(segment: 0, range: 26..<30, checksFile: true),
        ])
    }

    @Test("a file shorter than two buffers is read whole, checked with its last buffer; an empty one is still opened and checked")
    func smallFiles() {
        let segments: [BodySegment] = [.wholeFile(Self.file(size: 7)), .wholeFile(Self.file(size: 0))]
        #expect(Self.pieces(segments, bufferSize: 4, regionSize: 100) == [
            .read(segment: 0, range: 0..<4, checksFile: false), .read(segment: 0, range: 4..<7, checksFile: true),
            .read(segment: 1, range: 0..<0, checksFile: true),
        ])
        #expect(!FileRegionCursor.hasRegions(segments, bufferSize: 4))
        #expect(FileRegionCursor.hasRegions([.wholeFile(Self.file(size: 8))], bufferSize: 4))
    }

    @Test("the region size may change between regions")
    func changingRegionSize() {
        var cursor = FileRegionCursor(segments: [.wholeFile(Self.file(size: 40))], bufferSize: 4)
        #expect(cursor.next(regionSize: 4) == .region(segment: 0, range: 0..<4))
        #expect(cursor.next(regionSize: 8) == .region(segment: 0, range: 4..<12))
        #expect(cursor.next(regionSize: 100) == .region(segment: 0, range: 12..<36))
        #expect(cursor.next(regionSize: 100) == .read(segment: 0, range: 36..<40, checksFile: true))
        #expect(cursor.next(regionSize: 100) == nil)
    }
}
