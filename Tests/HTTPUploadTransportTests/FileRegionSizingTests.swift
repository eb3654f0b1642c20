import Testing
@testable import HTTPUploadTransport

/// `FileRegionSizing`: regions grow while writes are quick, at most doubling, and shrink to what
/// the link moves in `target` when they are slow.
@Suite("File region sizing")
struct FileRegionSizingTests {
    private static let kib: Int64 = 1024

    @Test("starts at the minimum and at most doubles per region, up to the maximum")
    func grows() {
        var sizing = FileRegionSizing(minimum: 256 * Self.kib, maximum: 1024 * Self.kib)
        #expect(sizing.size == 256 * Self.kib)
        sizing.regionWritten(256 * Self.kib, in: .microseconds(100)) // 2.6 GB/s: fits far more
        #expect(sizing.size == 512 * Self.kib)
        sizing.regionWritten(512 * Self.kib, in: .microseconds(200))
        #expect(sizing.size == 1024 * Self.kib)
        sizing.regionWritten(1024 * Self.kib, in: .microseconds(400))
        #expect(sizing.size == 1024 * Self.kib, "capped at the maximum")
        sizing.regionWritten(1024 * Self.kib, in: .zero)
        #expect(sizing.size == 1024 * Self.kib)
    }

    @Test("a slow write sizes the next region to what moves in the target time, never under the minimum")
    func shrinks() {
        var sizing = FileRegionSizing(minimum: 64 * Self.kib, maximum: 8192 * Self.kib)
        for _ in 0..<8 { sizing.regionWritten(sizing.size, in: .microseconds(10)) }
        #expect(sizing.size == 8192 * Self.kib)
        // 8 MiB in 4 s: 2 MiB/s, so 100 ms moves about 205 KiB.
        sizing.regionWritten(8192 * Self.kib, in: .seconds(4))
        #expect(sizing.size == 8192 * Self.kib / 40)
        // 64 KiB in 2 s: under the minimum.
        sizing.regionWritten(64 * Self.kib, in: .seconds(2))
        #expect(sizing.size == 64 * Self.kib)
    }
}
