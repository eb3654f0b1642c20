import Testing
import TextFormat

@Suite("Displaying raw file names")
struct EscapingTests {
    @Test("valid UTF-8 is shown as it is")
    func validUTF8() {
        #expect(DisplayWidth.displayable(bytes: Array("hello.txt".utf8)) == "hello.txt")
        #expect(DisplayWidth.displayable(bytes: Array("日本語 café.txt".utf8)) == "日本語 café.txt")
        let family = "👨\u{200D}👩\u{200D}👧.jpg"
        #expect(DisplayWidth.displayable(bytes: Array(family.utf8)) == family)
        #expect(DisplayWidth.displayable(bytes: Array("de\u{301}j\u{E0}".utf8)) == "de\u{301}j\u{E0}")
        #expect(DisplayWidth.displayable(bytes: [UInt8]()) == "")
    }

    @Test("undecodable bytes are shown as \\xNN, one escape per byte")
    func undecodable() {
        #expect(DisplayWidth.displayable(bytes: [0x61, 0xFF, 0x62]) == #"a\xFFb"#)
        #expect(DisplayWidth.displayable(bytes: Array("日本".utf8) + [0xE6]) == #"日本\xE6"#, "truncated sequence")
        #expect(DisplayWidth.displayable(bytes: [0xE6, 0x97, 0x61]) == #"\xE6\x97a"#, "sequence cut by ASCII")
        #expect(DisplayWidth.displayable(bytes: [0xC0, 0xAF]) == #"\xC0\xAF"#, "overlong")
        #expect(DisplayWidth.displayable(bytes: [0xED, 0xA0, 0x80]) == #"\xED\xA0\x80"#, "surrogate")
        #expect(DisplayWidth.displayable(bytes: [0xF4, 0x90, 0x80, 0x80]) == #"\xF4\x90\x80\x80"#, "above U+10FFFF")
        #expect(DisplayWidth.displayable(bytes: [0x80, 0x41]) == #"\x80A"#, "stray continuation byte")
        #expect(DisplayWidth.displayable(bytes: [0x6C, 0x61, 0x74, 0x69, 0x6E, 0x31, 0xE9]) == #"latin1\xE9"#)
    }

    @Test("control characters are escaped")
    func controls() {
        #expect(DisplayWidth.displayable(bytes: [0x61, 0x0A, 0x62]) == #"a\x0Ab"#)
        #expect(DisplayWidth.displayable(bytes: [0x1B, 0x5B, 0x32, 0x4A]) == #"\x1B[2J"#)
        #expect(DisplayWidth.displayable(bytes: [0x7F]) == #"\x7F"#)
        #expect(DisplayWidth.displayable(bytes: [0xC2, 0x85]) == #"\u{85}"#, "C1 control NEL")
        #expect(DisplayWidth.escapingControls("tab\there") == #"tab\x09here"#)
        #expect(DisplayWidth.escapingControls("plain") == "plain")
    }

    @Test("bidi overrides and leading invisible characters are escaped")
    func invisible() {
        #expect(DisplayWidth.escapingControls("abc\u{202E}txt.exe") == #"abc\u{202E}txt.exe"#)
        #expect(DisplayWidth.escapingControls("\u{301}abc") == #"\u{301}abc"#)
        #expect(DisplayWidth.escapingControls("a\u{200B}b") == #"a\u{200B}b"#)
        #expect(DisplayWidth.escapingControls("line\u{2028}break") == #"line\u{2028}break"#)
    }

    @Test("the escaped text has no zero-width grapheme")
    func everyGraphemeVisible() {
        let bytes: [UInt8] = [0x00, 0x01, 0xCC, 0x81, 0x61, 0xFF, 0xE2, 0x80, 0xAE, 0x0D, 0x0A]
        let text = DisplayWidth.displayable(bytes: bytes)
        #expect(text.allSatisfy { DisplayWidth.of($0) > 0 })
    }
}
