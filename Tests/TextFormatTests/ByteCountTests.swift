import Testing
import TextFormat

@Suite("Byte counts as people type them")
struct ByteCountTests {
    @Test(
        "byte counts",
        arguments: [
            ("1048576", Int64(1_048_576)), ("512K", 524_288), ("100MB", 104_857_600), ("10GiB", 10_737_418_240),
            ("1.5g", 1_610_612_736), ("0", 0), ("7b", 7),
        ])
    func byteCounts(text: String, expected: Int64) {
        #expect(ByteCount.parse(text) == expected)
    }

    @Test("bad byte counts", arguments: ["", "abc", "-5", "12XB", "1e3", "99999999999T"])
    func badByteCounts(text: String) {
        #expect(ByteCount.parse(text) == nil)
    }
}
