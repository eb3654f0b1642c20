import Testing
import TOML

/// The reader on its own: values, order, positions, sections, and errors in words at a line and column.
@Suite("TOML reader")
struct TOMLReaderTests {
    @Test("tables keep their keys in the order written; keys remember where they were written")
    func orderAndPositions() throws {
        let document = try TOMLDocument(parsing: "z = 1\na = 2\n[m]\n  \"é k\" = 1\nb.c = 2\n[c]\n")
        #expect(document.root.keys == ["z", "a", "m", "c"])
        let m = try #require(document.root["m"]?.table)
        #expect(m.keys == ["é k", "b"])
        #expect(m.position(of: "é k") == TOMLPosition(line: 4, column: 3))
        #expect(m.position(of: "b") == TOMLPosition(line: 5, column: 1))
        #expect(document.root.position(of: "m") == TOMLPosition(line: 3, column: 2))
        #expect(document.root.position(of: "nope") == nil)
    }

    @Test("values come out as their kinds, escapes and line-ending backslashes applied")
    func values() throws {
        let text = #"""
            s = "\u00E9\U0001F600\t\"q\"\\"
            m = """
            one \
               two"""
            l = '''C:\path'''
            i = [0xDEAD_BEEF, 0o17, 0b101, -9223372036854775808, +1_000]
            f = [1e3, -2.5E-1, -inf, 6.0]
            n = -nan
            b = [true, false]
            d = [1979-05-27T07:32:00-07:00, 1979-05-27 07:32:00, 1979-05-27, 07:32:00.25]
            t = { a.b = 1 }
            """#
        let root = try TOMLDocument(parsing: text).root
        #expect(root["s"] == .string("é😀\t\"q\"\\"))
        #expect(root["m"] == .string("one two"))
        #expect(root["l"] == .string(#"C:\path"#))
        #expect(root["i"] == .array([.integer(0xDEAD_BEEF), .integer(15), .integer(5), .integer(.min), .integer(1000)]))
        #expect(root["f"] == .array([.float(1000), .float(-0.25), .float(-.infinity), .float(6)]))
        #expect(root["n"]?.float?.isNaN == true)
        #expect(root["b"] == .array([.boolean(true), .boolean(false)]))
        #expect(root["d"] == .array([.offsetDateTime("1979-05-27T07:32:00-07:00"), .localDateTime("1979-05-27 07:32:00"),
                                     .localDate("1979-05-27"), .localTime("07:32:00.25")]))
        #expect(root["t"] == .table(TOMLTable([("a", .table(TOMLTable([("b", .integer(1))])))])))
        #expect(root["i"]?.integer == nil && root["s"]?.string == "é😀\t\"q\"\\" && root["f"]?.array?.count == 4)
    }

    @Test("\\r\\n line ends read as \\n, in multi-line strings too")
    func crlf() throws {
        let root = try TOMLDocument(parsing: "a = \"\"\"\r\nx\r\ny\"\"\"\r\nb = 1\r\n").root
        #expect(root["a"] == .string("x\ny") && root["b"] == .integer(1))
    }

    @Test("sections: each header's path and lines, up to the next header")
    func sections() throws {
        let document = try TOMLDocument(parsing: "# top\n[a]\nx = 1\n\n[[ b.\"c d\" ]]\ny = 2\n[[b.\"c d\"]]\n")
        #expect(document.sections.map(\.path) == [["a"], ["b", "c d"], ["b", "c d"]])
        #expect(document.sections.map(\.isArrayElement) == [false, true, true])
        #expect(document.sections.map(\.lines) == [2...4, 5...6, 7...8])
        #expect(try TOMLDocument(parsing: "a = 1").sections.isEmpty)
    }

    @Test("an integer that does not fit in 64 bits is an error", arguments: [
        "9223372036854775808", "-9223372036854775809", "0x8000000000000000", "0b1" + String(repeating: "0", count: 64),
    ])
    func outOfRange(_ number: String) {
        #expect(throws: TOMLError(position: TOMLPosition(line: 1, column: 5),
                                  reason: "the integer \(number) does not fit in 64 bits (-9223372036854775808 to 9223372036854775807)")) {
            try TOMLDocument(parsing: "a = \(number)")
        }
    }

    @Test("errors say what is wrong, at the line and column (in characters) where it is", arguments: [
        ("a = 1\na = 2", 2, 1, "duplicate key 'a': it is already defined"),
        ("a.b = 1\na = 2", 2, 1, "duplicate key 'a': it is already defined (as a table)"),
        ("[a]\nb = 1\n[a]", 3, 2, "table [a] is defined twice: it was already defined by an earlier [a]"),
        ("[x]\na.b = 1\n[x.a]", 3, 4, "table [x.a] is defined twice: it was already defined by dotted keys"),
        ("[a.b]\n[a]\nb.c = 1", 3, 1, "cannot add to table 'b' with a dotted key: it has its own [b] header"),
        ("a = {b = 1}\na.c = 2", 2, 1, "cannot add keys to 'a': it is an inline table, which is closed"),
        ("a = {b = 1}\n[a.c]", 2, 2, "cannot add keys to 'a': it is an inline table, which is closed"),
        ("a = [1]\n[[a]]", 2, 3, "cannot define table 'a': it is already an array"),
        ("[[a]]\n[a]", 2, 2, "cannot define table [a]: 'a' is an array of tables (write [[a]] to add to it)"),
        ("[a]\n[[a]]", 2, 3, "cannot make [[a]] an array of tables: 'a' is already a table"),
        ("a = {b = 1,}", 1, 12, "a trailing comma is not allowed in an inline table"),
        (#"a = "x\qy""#, 1, 7, #"invalid escape '\q' (TOML has \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX)"#),
        (#"a = "\uD800""#, 1, 6, #"\uD800 is not a Unicode scalar value (a surrogate, or above 10FFFF)"#),
        ("a = \"日本\u{01}\"", 1, 8, "U+0001 (a control character) is not allowed in a string; write it as an escape"),
        ("a = \"abc\nb = 1", 1, 9, "the string is not closed on its line (a string over several lines needs triple quotes)"),
        ("a = '''abc", 1, 11, "the string that starts at line 1, column 5 is not closed"),
        ("a = [1,\n2", 2, 2, "the array opened at line 1, column 5 is not closed with ']'"),
        ("a = 01", 1, 5, "'01': a decimal number cannot start with 0 (leading zeros are not allowed)"),
        ("a = 1.", 1, 5, "'1.': a float needs digits after its decimal point"),
        ("a = 1979-02-30", 1, 13, "day 30 does not exist in month 2 of 1979"),
        ("a = 07:32", 1, 5, "a time is written HH:MM:SS (seconds are not optional in TOML 1.0)"),
        ("a = 1 b", 1, 7, "expected the end of the line after the value, found 'b'"),
        ("a = TRUE", 1, 5, "expected a value (a string, number, boolean, date, array or inline table), found 'T'"),
        ("a b = 1", 1, 3, "expected '=' after the key, found 'b'"),
        ("[a", 1, 3, "expected ']' to close the table header, found the end of the document"),
        ("# \u{7F}", 1, 3, "U+007F (a control character) is not allowed in a comment"),
    ])
    func errors(text: String, line: Int, column: Int, reason: String) {
        #expect(throws: TOMLError(position: TOMLPosition(line: line, column: column), reason: reason)) {
            try TOMLDocument(parsing: text)
        }
    }

    @Test("every prefix of every corpus document reads or fails with an error at a place inside it, never traps")
    func prefixes() {
        for (_, text) in TOMLCorpus.valid + TOMLCorpus.invalid {
            let scalars = Array(text.unicodeScalars)
            for length in 0...scalars.count {
                var prefix = String.UnicodeScalarView()
                prefix.append(contentsOf: scalars[..<length])
                do {
                    _ = try TOMLDocument(parsing: String(prefix))
                } catch {
                    let lines = String(prefix).utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
                    #expect((1...lines).contains(error.position.line) && error.position.column >= 1, "\(String(prefix)): \(error)")
                }
            }
        }
    }

        @Test("an error reads as line, column and reason")
    func errorDescription() {
        #expect(TOMLError(position: TOMLPosition(line: 3, column: 7), reason: "duplicate key 'a'").description
            == "line 3, column 7: duplicate key 'a'")
    }
}
