import FileSystem
import Testing

@Suite("File-system names: a lossless mapping between bytes and String")
struct FileSystemNameTests {
    private func mapped(_ byte: UInt8) -> String { String(Unicode.Scalar(0xEF00 + UInt32(byte))!) }

    @Test("valid UTF-8 decodes as itself", arguments: ["", "plain.txt", "café 日本 🚀", "a\nb", "\u{EF7F}x"])
    func validUTF8(_ text: String) {
        #expect(FileSystemName.decode(Array(text.utf8)) == text)
        #expect(Array(text.utf8).withUnsafeBytes { FileSystemName.decode($0) } == text)
        #expect(FileSystemName.bytes(of: text) == Array(text.utf8))
        #expect(!FileSystemName.isUndecodable(text))
    }

    @Test("bytes outside well-formed UTF-8 become U+EF00 + byte, each", arguments: [
        ([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74], [0x63, 0x61, 0x66, nil, 0x2E, 0x74, 0x78, 0x74]),  // café in Latin-1
        ([0xC0, 0xAF], [nil, nil]),  // overlong "/"
        ([0xE0, 0x80, 0xAF], [nil, nil, nil]),  // overlong, three bytes
        ([0xED, 0xA0, 0x80], [nil, nil, nil]),  // a surrogate, U+D800
        ([0xE2, 0x82], [nil, nil]),  // truncated at the end
        ([0xE2, 0x82, 0x41], [nil, nil, 0x41]),  // truncated before ASCII
        ([0x80, 0xBF], [nil, nil]),  // stray continuation bytes
        ([0xF5, 0xFF, 0xFE], [nil, nil, nil]),  // never valid
        ([0xF4, 0x90, 0x80, 0x80], [nil, nil, nil, nil]),  // above U+10FFFF
    ] as [([UInt8], [UInt8?])])
    func undecodableBytes(_ bytes: [UInt8], _ expected: [UInt8?]) {
        let decoded = FileSystemName.decode(bytes)
        let want = zip(bytes, expected).map { byte, ascii in ascii.map { String(Unicode.Scalar($0)) } ?? mapped(byte) }
        #expect(decoded == want.joined())
        // The same from memory, as argv is decoded.
        #expect(bytes.withUnsafeBytes { FileSystemName.decode($0) } == decoded)
        #expect(FileSystemName.bytes(of: decoded) == bytes)
        #expect(FileSystemName.isUndecodable(decoded))
        #expect(!decoded.unicodeScalars.contains("\u{FFFD}"))
    }

    @Test("a real private-use scalar of the mapped range stays lossless")
    func realPrivateUseScalar() {
        let bytes = Array("a\u{EFE9}b.txt".utf8)  // 61 EE BF A9 62 …
        let decoded = FileSystemName.decode(bytes)
        #expect(decoded == "a" + mapped(0xEE) + mapped(0xBF) + mapped(0xA9) + "b.txt")
        #expect(FileSystemName.bytes(of: decoded) == bytes)
        #expect(!FileSystemName.isUndecodable(decoded))
    }

    @Test("scalars below the mapped range are ordinary: nothing encodes to a hidden ASCII byte")
    func noHiddenASCII() {
        for scalar in ["\u{EF00}", "\u{EF22}", "\u{EF2F}", "\u{EF0A}", "\u{EF41}"] {
            #expect(FileSystemName.bytes(of: scalar) == Array(scalar.utf8))
            #expect(FileSystemName.decode(Array(scalar.utf8)) == scalar)
        }
    }

    @Test("every byte string round-trips, including random ones")
    func randomRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for byte in UInt8.min...UInt8.max {
            #expect(FileSystemName.bytes(of: FileSystemName.decode([byte])) == [byte])
        }
        for _ in 0..<2000 {
            let length = Int.random(in: 0...24, using: &generator)
            // Mostly high bytes, so multi-byte sequences (valid, truncated, overlong) are common.
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x80...0xFF, using: &generator)
                    : UInt8.random(in: 0...0xFF, using: &generator)
            }
            let decoded = FileSystemName.decode(bytes)
            #expect(FileSystemName.bytes(of: decoded) == bytes, "bytes \(bytes)")
            #expect(FileSystemName.isUndecodable(decoded) == (String(validating: bytes, as: UTF8.self) == nil))
        }
    }

    @Test("escaped shows mapped bytes as \\xNN and leaves the rest")
    func escaped() {
        #expect(FileSystemName.escaped(FileSystemName.decode([0x2F, 0x63, 0xE9, 0x0A, 0xFF])) == "/c\\xE9\n\\xFF")
        #expect(FileSystemName.escaped("日本") == "日本")
    }

    @Test("withFileSystemPath passes the raw bytes, NUL-terminated; a NUL gives the empty path")
    func cString() {
        let path = FileSystemName.decode([0x2F, 0x74, 0xE9])
        let bytes = FileSystemName.withFileSystemPath(path) { pointer in
            (0..<4).map { UInt8(bitPattern: pointer[$0]) }
        }
        #expect(bytes == [0x2F, 0x74, 0xE9, 0])
        #expect(FileSystemName.withFileSystemPath("/etc\0passwd") { $0[0] } == 0)
    }
}
