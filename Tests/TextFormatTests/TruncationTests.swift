import Testing
import TextFormat

@Suite("Truncation, padding and wrapping")
struct TruncationTests {
    @Test func truncateASCII() {
        #expect(DisplayWidth.truncate("hello world", toWidth: 8) == "hello w…")
        #expect(DisplayWidth.truncate("hello", toWidth: 5) == "hello")
        #expect(DisplayWidth.truncate("hello", toWidth: 1) == "…")
        #expect(DisplayWidth.truncate("hello", toWidth: 0) == "")
        #expect(DisplayWidth.truncate("hello", toWidth: -3) == "")
        #expect(DisplayWidth.truncate("hello", toWidth: 2, ellipsis: "...") == "he")
        #expect(DisplayWidth.truncate("hello", toWidth: 4, ellipsis: "...") == "h...")
    }

    @Test("truncation never splits a wide character")
    func truncateWide() {
        #expect(DisplayWidth.truncate("日本語テキスト", toWidth: 7) == "日本語…")
        #expect(DisplayWidth.truncate("日本語", toWidth: 4) == "日…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語", toWidth: 4)) == 3)
        #expect(DisplayWidth.truncate("a👨\u{200D}👩\u{200D}👧b", toWidth: 3) == "a…")
        #expect(DisplayWidth.truncate("de\u{301}f", toWidth: 2) == "d…")
    }

    @Test func truncateMiddle() {
        #expect(DisplayWidth.truncateMiddle("very-long-file-name.txt", toWidth: 12) == "very-l…e.txt")
        #expect(DisplayWidth.truncateMiddle("short.txt", toWidth: 12) == "short.txt")
        #expect(DisplayWidth.truncateMiddle("日本語のファイル.txt", toWidth: 10) == "日本….txt")
        #expect(DisplayWidth.truncateMiddle("abc", toWidth: 1) == "…")
    }

    @Test func padAndFit() {
        #expect(DisplayWidth.pad("ab", toWidth: 5) == "ab   ")
        #expect(DisplayWidth.pad("ab", toWidth: 5, alignment: .right) == "   ab")
        #expect(DisplayWidth.pad("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(DisplayWidth.pad("日本", toWidth: 5) == "日本 ")
        #expect(DisplayWidth.pad("toolong", toWidth: 3) == "toolong")
        #expect(DisplayWidth.fit("日本語", width: 5) == "日本…")
        #expect(DisplayWidth.fit("日本語", width: 4) == "日… ")
        #expect(DisplayWidth.fit("42", width: 5, alignment: .right) == "   42")
        #expect(DisplayWidth.fit("x", width: 0) == "")
    }

    @Test func prefixAndSuffix() {
        #expect(DisplayWidth.prefix("日本語", fitting: 5) == ("日本", 4))
        #expect(DisplayWidth.suffix("日本語", fitting: 5) == ("本語", 4))
        #expect(DisplayWidth.prefix("abc", fitting: 0) == ("", 0))
    }

    @Test func wrap() {
        #expect(DisplayWidth.wrap("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(DisplayWidth.wrap("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(DisplayWidth.wrap("a\n\nb", width: 5) == ["a", "", "b"])
        #expect(DisplayWidth.wrap("日本語テキスト", width: 5) == ["日本", "語テ", "キス", "ト"])
        #expect(DisplayWidth.wrap("go  to   it", width: 20) == ["go to it"])
        #expect(DisplayWidth.wrap("x", width: 0) == [])
        #expect(DisplayWidth.wrap("", width: 4) == [""])
        #expect(DisplayWidth.wrap("日", width: 1) == ["日"], "a grapheme wider than the line gets a line of its own")
    }
}
