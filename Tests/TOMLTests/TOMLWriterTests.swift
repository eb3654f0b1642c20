import Testing
import TOML

/// The writer: valid TOML that reads back as what was written.
@Suite("TOML writer")
struct TOMLWriterTests {
    @Test("keys are bare when they can be, quoted and escaped when not")
    func keys() {
        #expect(TOMLWriter.key("url") == "url")
        #expect(TOMLWriter.key("my-site_2") == "my-site_2")
        #expect(TOMLWriter.key("my site") == #""my site""#)
        #expect(TOMLWriter.key("a.b") == #""a.b""#)
        #expect(TOMLWriter.key("") == #""""#)
        #expect(TOMLWriter.key("é") == #""é""#)
    }

    @Test("strings escape quotes, backslashes and control characters, and keep the rest")
    func strings() {
        #expect(TOMLWriter.string("a\"b\\c\td\ne\r\u{08}\u{0C}\u{01}\u{7F}é😀") == #""a\"b\\c\td\ne\r\b\f\u0001\u007Fé😀""#)
    }

    @Test("a document: plain keys, then [sections], no header for a table of tables only, [[arrays of tables]]")
    func document() {
        let profile = TOMLTable([("url", .string("https://x/")), ("headers", .array([.string("A: 1"), .string("B: \"2\"")])),
                                 ("concurrency", .integer(4)), ("insecure", .boolean(false)), ("timeout", .float(2.5)), ("none", .array([]))])
        let root = TOMLTable([("version", .integer(1)), ("profiles", .table(TOMLTable([("my site", .table(profile)), ("empty", .table(TOMLTable()))]))),
                              ("jobs", .array([.table(TOMLTable([("id", .integer(1))])), .table(TOMLTable())]))])
        #expect(TOMLWriter.document(root) == """
            version = 1

            [profiles."my site"]
            url = "https://x/"
            headers = [ "A: 1", "B: \\"2\\"" ]
            concurrency = 4
            insecure = false
            timeout = 2.5
            none = []

            [profiles.empty]

            [[jobs]]
            id = 1

            [[jobs]]

            """)
        #expect(TOMLWriter.document(TOMLTable()) == "")
    }

    @Test("what is written reads back as the same document")
    func roundTrip() throws {
        let inner = TOMLTable([("x", .integer(.min)), ("y", .string("")), ("z z", .array([]))])
        let root = TOMLTable([
            ("s", .string("quote \" backslash \\ tab \t newline \n nul \u{0} é 😀")), ("", .string("empty key")),
            ("i", .array([.integer(.max), .integer(-1), .integer(0)])),
            ("f", .array([.float(1.5), .float(-0.001), .float(1e300), .float(.leastNonzeroMagnitude), .float(.infinity), .float(-.infinity)])),
            ("b", .boolean(true)),
            ("d", .array([.offsetDateTime("1979-05-27T07:32:00Z"), .localDateTime("1979-05-27T07:32:00"), .localDate("1979-05-27"),
                          .localTime("07:32:00")])),
            ("mixed", .array([.integer(1), .string("a"), .array([.boolean(false)]), .table(inner)])),
            ("inline", .table(TOMLTable([("only", .table(TOMLTable([("deep", .table(inner))])))]))),
            ("t", .table(TOMLTable([("a.b", .integer(1)), ("sub", .table(inner))]))),
            ("aot", .array([.table(TOMLTable([("n", .integer(1)), ("sub", .table(inner))])), .table(inner)])),
        ])
        let written = TOMLWriter.document(root)
        #expect(try TOMLDocument(parsing: written).root == root, "\(written)")
        let nan = try TOMLDocument(parsing: TOMLWriter.document(TOMLTable([("n", .float(.nan))]))).root
        #expect(nan["n"]?.float?.isNaN == true)
    }
}
