import Receiver
import Testing

@Suite("SafeFilename")
struct SafeFilenameTests {
    @Test(
        "path traversal and hidden names are reduced to a plain name",
        arguments: [
            ("../../etc/passwd", "passwd"),
            ("/abs/x", "x"),
            ("..", "upload"),
            (".", "upload"),
            ("...", "upload"),
            ("", "upload"),
            ("a/b/", "upload"),
            (".hidden", "hidden"),
            ("..hidden.txt", "hidden.txt"),
            ("../.bashrc", "bashrc"),
            ("C:\\Users\\me\\report.pdf", "report.pdf"),
            ("..\\..\\windows\\win.ini", "win.ini"),
            ("dir/../../x.txt", "x.txt"),
        ])
    func traversal(original: String, expected: String) {
        #expect(SafeFilename(original).value == expected)
    }

    @Test(
        "control characters and bidi overrides are replaced",
        arguments: [
            ("a\u{0}b.txt", "a_b.txt"),
            ("line\r\nbreak.txt", "line__break.txt"),
            ("tab\there", "tab_here"),
            ("del\u{7F}.bin", "del_.bin"),
            ("c1\u{85}.bin", "c1_.bin"),
            ("evil\u{202E}txt.exe", "evil_txt.exe"),
            ("\n.hidden", "_.hidden"),
        ])
    func controlCharacters(original: String, expected: String) {
        #expect(SafeFilename(original).value == expected)
    }

    @Test(
        "UTF-8, spaces, quotes and semicolons are kept exactly",
        arguments: [
            "café.txt", "日本語のファイル.txt", "emoji 🚀👩‍💻.bin", "quote\"d.txt", "semi;colon.txt", "with space .txt",
            "Ünïcödé 🇫🇷.tar.gz", "-rf", "name=value&x",
        ])
    func keepsText(original: String) {
        #expect(SafeFilename(original).value == original)
        #expect(Array(SafeFilename(original).value.utf8) == Array(original.utf8))
    }

    @Test("long names are shortened at a character boundary, keeping the extension")
    func longNames() {
        let long = String(repeating: "日", count: 150) + ".txt"  // 454 bytes
        let safe = SafeFilename(long).value
        #expect(safe.utf8.count <= SafeFilename.maximumByteCount)
        #expect(safe.hasSuffix(".txt"))
        #expect(safe.hasPrefix("日日日"))
        #expect(safe.dropLast(4).allSatisfy { $0 == "日" })
        let longExtension = "a." + String(repeating: "x", count: 300)
        #expect(SafeFilename(longExtension).value.utf8.count <= SafeFilename.maximumByteCount)
    }

    @Test("candidates add -N before the extension")
    func candidates() {
        #expect(SafeFilename("name.ext").candidate(0) == "name.ext")
        #expect(SafeFilename("name.ext").candidate(1) == "name-1.ext")
        #expect(SafeFilename("archive.tar.gz").candidate(2) == "archive.tar-2.gz")
        #expect(SafeFilename("README").candidate(3) == "README-3")
        #expect(SafeFilename(".env").candidate(1) == "env-1")
        #expect(SafeFilename("日本.txt").candidate(1) == "日本-1.txt")
    }

    @Test("no result can name anything but a direct child", arguments: 0..<200)
    func fuzz(seed: Int) {
        let alphabet: [Character] = ["/", "\\", ".", "a", "é", "\0", "\n", " ", "日", "-"]
        var generator = SplitMix64(seed: UInt64(seed))
        let length = Int(generator.next() % 12)
        let original = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        let safe = SafeFilename(original).value
        #expect(!safe.isEmpty)
        #expect(!safe.contains("/"))
        #expect(!safe.hasPrefix("."))
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }
}
