import Multipart
import Synchronization
import Testing

@Suite("Content types by extension")
struct MIMETypesTests {
    @Test("the shipped table covers the common types, case-insensitively", arguments: [
        ("photo.JPG", "image/jpeg"), ("a.jpeg", "image/jpeg"), ("a.png", "image/png"), ("a.gif", "image/gif"),
        ("a.webp", "image/webp"), ("a.heic", "image/heic"), ("a.svg", "image/svg+xml"), ("a.mp3", "audio/mpeg"),
        ("a.wav", "audio/wav"), ("a.flac", "audio/flac"), ("a.mp4", "video/mp4"), ("a.MOV", "video/quicktime"),
        ("a.mkv", "video/x-matroska"), ("a.webm", "video/webm"), ("a.pdf", "application/pdf"),
        ("a.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("a.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("a.zip", "application/zip"),
        ("a.tar.gz", "application/gzip"), ("a.7z", "application/x-7z-compressed"), ("a.txt", "text/plain"),
        ("a.csv", "text/csv"), ("a.json", "application/json"), ("a.md", "text/markdown"), ("a.html", "text/html"),
        ("a.swift", "text/x-swift"), ("a.py", "text/x-python"), ("a.js", "text/javascript"), ("a.woff2", "font/woff2"),
        ("a.ttf", "font/ttf"), ("a.yaml", "application/yaml"),
    ])
    func shipped(filename: String, type: String) {
        #expect(MIMETypes.standard.type(forFilename: filename) == type)
    }

    @Test("the secondary table is asked only for extensions the first does not list, and only made then")
    func secondaryOnMiss() {
        let asked = Mutex(0)
        let table = MIMETypes(text: "text/plain txt\n", secondary: {
            asked.withLock { $0 += 1 }
            return MIMETypes(text: "text/other txt zzz\n")
        })
        #expect(table.type(forFilename: "a.TXT") == "text/plain")
        #expect(asked.withLock { $0 } == 0)
        #expect(table.type(forFilename: "a.zzz") == "text/other")
        #expect(table.type(forFilename: "a.none") == nil)
        #expect(table.type(forFilename: "README") == nil)
        #expect(asked.withLock { $0 } == 2)
    }

    @Test("the shipped table has at least 100 types")
    func size() {
        #expect(MIMETypes.standard.count >= 150)
    }

    @Test("unknown or missing extensions fall back to octet-stream; an override wins")
    func fallbackAndOverride() {
        let table = MIMETypes.standard
        #expect(table.contentType(override: nil, filename: "data.unknownext") == "application/octet-stream")
        #expect(table.contentType(override: nil, filename: "Makefile") == "application/octet-stream")
        #expect(table.contentType(override: nil, filename: ".bashrc") == "application/octet-stream")
        #expect(table.contentType(override: "text/x-mine", filename: "a.png") == "text/x-mine")
    }

    @Test("merging keeps the first table's types and adds the other's extensions")
    func merge() {
        var mine = MIMETypes(text: "# comment\ntext/a  aaa  BBB\n")
        mine.merge(MIMETypes(text: "text/other bbb ccc # trailing comment\nnoextensions\n"))
        #expect(mine.type(forFilename: "x.aaa") == "text/a")
        #expect(mine.type(forFilename: "x.bbb") == "text/a")
        #expect(mine.type(forFilename: "x.CCC") == "text/other")
        #expect(mine.count == 3)
    }
}
