import Testing
@testable import Multipart

@Suite("Hex, trimming and header-name helpers")
struct TextHelperTests {
    @Test("bytes as lowercase hexadecimal, two digits each")
    func hex() {
        #expect([UInt8]().lowercaseHex == "")
        #expect([0x00, 0x0f, 0xa0, 0xff].lowercaseHex == "000fa0ff")
        #expect(Array(0...255).map(UInt8.init).lowercaseHex.count == 512)
    }

    @Test("trimming whitespace keeps line breaks; trimming both drops them; inner text stays")
    func trimming() {
        #expect(" \t a b\t ".trimmingWhitespace() == "a b")
        #expect("\u{00A0}\u{2003}x\u{3000}".trimmingWhitespace() == "x")
        #expect("\n a \n".trimmingWhitespace() == "\n a \n")
        #expect("\r\n a \n\u{2028}".trimmingWhitespaceAndNewlines() == "a")
        #expect("   ".trimmingWhitespace() == "")
        #expect("[x]".trimming { "[]".contains($0) } == "x")
    }

    @Test("header names compare without regard to ASCII case, and only so")
    func namesEqual() {
        #expect(HTTPToken.namesEqual("Retry-After", "retry-after"))
        #expect(HTTPToken.namesEqual("HOST", "host"))
        #expect(HTTPToken.namesEqual("", ""))
        #expect(!HTTPToken.namesEqual("Host", "Hosts"))
        #expect(!HTTPToken.namesEqual("Retry-After", "Retry_After"))
        // Only A-Z fold: "@" (0x40) and "`" (0x60) differ by the same bit but are not letters.
        #expect(!HTTPToken.namesEqual("@", "`"))
        #expect(!HTTPToken.namesEqual("É", "é"))
    }
}
