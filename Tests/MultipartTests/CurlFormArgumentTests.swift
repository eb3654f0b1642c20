import Multipart
import TestSupport
import Testing

@Suite("curl -F syntax")
struct CurlFormArgumentTests {
    @Test("name=value is a literal text field")
    func text() throws {
        let arg = try CurlFormArgument.parse("title=Summer trip")
        #expect(arg == CurlFormArgument(name: "title", value: .text("Summer trip"), filename: nil, contentType: nil, headers: []))
        #expect(try CurlFormArgument.parse("empty=").value == .text(""))
        #expect(try CurlFormArgument.parse("eq=a=b").value == .text("a=b"))
    }

    @Test("--form-string: everything after the first = is the value, as it is")
    func literal() throws {
        #expect(try CurlFormArgument.literal("a=@/etc/passwd;type=x/y") == CurlFormArgument(name: "a", value: .text("@/etc/passwd;type=x/y")))
        #expect(try CurlFormArgument.literal("b=<f").value == .text("<f"))
        #expect(try CurlFormArgument.literal(#"c="q;x"=y"#).value == .text(#""q;x"=y"#))
        #expect(try CurlFormArgument.literal("d=").value == .text(""))
        #expect(throws: CurlFormSyntaxError.missingEquals("e")) { try CurlFormArgument.literal("e") }
        #expect(throws: CurlFormSyntaxError.emptyName("=v")) { try CurlFormArgument.literal("=v") }
    }

    @Test("name=@path with type and filename")
    func file() throws {
        let arg = try CurlFormArgument.parse("photo=@/tmp/a.jpg;type=image/jpeg;filename=b.jpg")
        #expect(arg.value == .file(path: "/tmp/a.jpg"))
        #expect(arg.contentType == "image/jpeg")
        #expect(arg.filename == "b.jpg")
        let part = try arg.formPart()
        #expect(part.filename == "b.jpg")
        #expect(part.content == .file(.path("/tmp/a.jpg")))
        #expect(try CurlFormArgument.parse("f=@dir/x.txt").formPart().filename == "x.txt")
    }

    @Test("quoted values hold semicolons, quotes and backslashes")
    func quoted() throws {
        let arg = try CurlFormArgument.parse(#"f=@"a;b \"c\".txt";filename="x;y\\z.txt""#)
        #expect(arg.value == .file(path: #"a;b "c".txt"#))
        #expect(arg.filename == #"x;y\z.txt"#)
        #expect(try CurlFormArgument.parse(#"t="semi;colon""#).value == .text("semi;colon"))
    }

    @Test("headers= adds a part header; spaces after ; are skipped")
    func headers() throws {
        let arg = try CurlFormArgument.parse("t=v; headers=X-Trace: 42; type=text/plain")
        #expect(arg.headers == [HeaderField(name: "X-Trace", value: "42")])
        #expect(arg.contentType == "text/plain")
    }

    @Test("errors say what is wrong", arguments: [
        ("novalue", CurlFormSyntaxError.missingEquals("novalue")),
        ("=x", .emptyName("=x")),
        ("f=@", .emptyPath("f=@")),
        (#"f=@"open"#, .unterminatedQuote(#"f=@"open"#)),
        (#"f="a"b"#, .textAfterQuote(#"f="a"b"#)),
        ("f=@a;type=bad", .badContentType("bad", "f=@a;type=bad")),
        ("f=a;b", .unknownParameter("b", "f=a;b")),
        ("f=@a;encoder=base64", .unsupportedParameter("encoder", "f=@a;encoder=base64")),
    ])
    func errors(argument: String, error: CurlFormSyntaxError) {
        #expect(throws: error) { try CurlFormArgument.parse(argument) }
    }

    @Test("name=<path reads the file as a text value")
    func textFromFile() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("v.txt", Array("from file".utf8))
        let part = try CurlFormArgument.parse("note=<\(path)").formPart()
        #expect(part.content == .text("from file"))
        #expect(part.filename == nil)
    }

    @Test("-H lines parse as headers")
    func headerLines() {
        #expect(HeaderField.parse("Authorization:  Bearer abc ") == HeaderField(name: "Authorization", value: "Bearer abc"))
        #expect(HeaderField.parse("X-Empty:") == HeaderField(name: "X-Empty", value: ""))
        #expect(HeaderField.parse("no colon") == nil)
        #expect(HeaderField.parse("Bad Name: v") == nil)
    }
}
