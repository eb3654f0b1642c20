@testable import Receiver
import Testing

@Suite("Header parameters and part headers")
struct HeaderValueTests {
    @Test("quoted values keep semicolons, equals signs and escaped quotes")
    func quoted() {
        let value = HeaderValue(parsing: #"form-data; name="field"; filename="a;b=c \"q\".txt""#)
        #expect(value.value == "form-data")
        #expect(value.parameter("name") == "field")
        #expect(value.parameter("FILENAME") == #"a;b=c "q".txt"#)
    }

    @Test("unquoted parameters, extra spaces and several parameters")
    func unquoted() {
        let value = HeaderValue(parsing: "multipart/form-data ;  charset=utf-8;boundary=----abc123 ")
        #expect(value.value == "multipart/form-data")
        #expect(value.parameter("charset") == "utf-8")
        #expect(value.parameter("boundary") == "----abc123")
        #expect(value.parameter("missing") == nil)
    }

    @Test("a backslash not before a quote or backslash is kept (Windows paths)")
    func backslashes() {
        let value = HeaderValue(parsing: #"form-data; name="f"; filename="C:\dir\a.txt""#)
        #expect(value.parameter("filename") == #"C:\dir\a.txt"#)
    }

    @Test("RFC 8187 extended values decode UTF-8 and Latin-1")
    func extended() {
        #expect(HeaderValue.decodeExtendedValue("UTF-8''%E6%97%A5%E6%9C%AC.txt") == "日本.txt")
        #expect(HeaderValue.decodeExtendedValue("iso-8859-1'en'caf%E9.txt") == "café.txt")
        #expect(HeaderValue.decodeExtendedValue("koi8-r''x") == nil)
        #expect(HeaderValue.decodeExtendedValue("UTF-8''%E6%97") == nil)
    }

    @Test("part headers: WHATWG escapes are decoded, filename* wins, content type kept")
    func partHeaders() throws {
        let part = try PartHeaders(headers: [
            ("Content-Disposition", #"form-data; name="na%22me"; filename="a%22b%0D%0Ac%25.txt""#),
            ("content-type", "image/png"),
        ])
        #expect(part.name == "na\"me")
        #expect(part.filename == "a\"b\r\nc%25.txt")
        #expect(part.contentType == "image/png")

        let extended = try PartHeaders(headers: [
            ("Content-Disposition", #"form-data; name="f"; filename="fallback.txt"; filename*=UTF-8''%F0%9F%9A%80.txt"#)
        ])
        #expect(extended.filename == "🚀.txt")

        let field = try PartHeaders(headers: [("Content-Disposition", #"form-data; name="note""#)])
        #expect(field.filename == nil)
        #expect(field.contentType == nil)
    }

    @Test("part headers without form-data or a name are refused")
    func refusedPartHeaders() {
        #expect(throws: ReceiverError.self) { try PartHeaders(headers: [("Content-Type", "text/plain")]) }
        #expect(throws: ReceiverError.self) { try PartHeaders(headers: [("Content-Disposition", "attachment; name=\"x\"")]) }
        #expect(throws: ReceiverError.self) { try PartHeaders(headers: [("Content-Disposition", "form-data; filename=\"x\"")]) }
    }
}
