import Testing
import TextFormat

@Suite("DisplayWidth")
struct DisplayWidthTests {
    @Test("ASCII counts one column per character")
    func ascii() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of(" ~") == 2)
    }

    @Test("precomposed and decomposed é both take one column")
    func accentedLetters() {
        let precomposed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(precomposed.count == 1 && decomposed.count == 1)
        #expect(DisplayWidth.of(precomposed) == 1)
        #expect(DisplayWidth.of(decomposed) == 1)
        #expect(DisplayWidth.of("caf\u{E9} de\u{301}compose\u{301}") == 14)
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
    }

    @Test("CJK, Hangul and fullwidth forms take two columns")
    func wide() {
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("日本語abc") == 9)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2, "decomposed Hangul syllable")
        #expect(DisplayWidth.of("Ｆｕｌｌ") == 8)
        #expect(DisplayWidth.of(Unicode.Scalar(0x3000)!) == 2, "ideographic space")
        #expect(DisplayWidth.of(Unicode.Scalar(0x20000)!) == 2, "CJK extension B")
    }

    @Test("emoji, ZWJ sequences, flags, skin tones and VS16 take two columns")
    func emoji() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x1F300)!) == 2)
        #expect(DisplayWidth.of(Unicode.Scalar(0x1FA70)!) == 2)
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(family.count == 1)
        #expect(DisplayWidth.of(family) == 2)
        #expect(DisplayWidth.of("🇯🇵") == 2)
        #expect(DisplayWidth.of("🇯🇵🇫🇷") == 4)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("\u{2764}") == 1, "heart without VS16 is text style")
        #expect(DisplayWidth.of("\u{2764}\u{FE0F}") == 2, "heart with VS16 is emoji style")
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2, "keycap")
    }

    @Test("joiners, variation selectors and marks take no column")
    func zeroWidth() {
        for value: UInt32 in [0x200B, 0x200C, 0x200D, 0xFE0F, 0xFE00, 0x0301, 0x20E3, 0xE0100, 0x1160] {
            #expect(DisplayWidth.of(Unicode.Scalar(value)!) == 0, "U+\(String(value, radix: 16))")
        }
        #expect(DisplayWidth.of(Character("\u{301}")) == 0, "lone combining mark")
    }

    @Test("control characters take no column")
    func controls() {
        #expect(DisplayWidth.of("\u{1B}") == 0)
        #expect(DisplayWidth.of("a\tb") == 2)
        #expect(DisplayWidth.of("\r\n") == 0)
        #expect(DisplayWidth.of("\u{7F}\u{85}") == 0)
        #expect(DisplayWidth.isControl(Unicode.Scalar(0x9F)!))
        #expect(!DisplayWidth.isControl(Unicode.Scalar(0xA0)!))
    }

    @Test("ambiguous-width symbols used by the widgets take one column")
    func ambiguous() {
        #expect(DisplayWidth.of("…•─│┌▏█×") == 8)
    }
}
