import Multipart
import Testing

@Suite("Escaping of names, filenames and values (WHATWG / curl ≥ 7.81)")
struct EscapingTests {
    let encoder = MultipartEncoder(boundary: try! Boundary("B"), mimeTypes: MIMETypes(text: ""))

    private func disposition(name: String, filename: String? = nil) throws -> String {
        var form = MultipartForm()
        if let filename {
            form.parts.append(.file(name: name, filename: filename, bytes: []))
        } else {
            form.addText(name: name, value: "")
        }
        let text = String(decoding: try collect(try encoder.prepare(form)), as: UTF8.self)
        let line = text.split(separator: "\r\n", omittingEmptySubsequences: false)[1]
        return String(line)
    }

    @Test("field names", arguments: [
        ("plain", "name=\"plain\""),
        ("a\"b", "name=\"a%22b\""),
        ("a\rb", "name=\"a%0D%0Ab\""),
        ("a\nb", "name=\"a%0D%0Ab\""),
        ("a\r\nb", "name=\"a%0D%0Ab\""),
        ("semi;colon", "name=\"semi;colon\""),
        ("back\\slash", "name=\"back\\slash\""),
        ("50%", "name=\"50%\""),
        ("café 日本 🚀", "name=\"café 日本 🚀\""),
    ])
    func names(raw: String, expected: String) throws {
        #expect(try disposition(name: raw) == "Content-Disposition: form-data; \(expected)")
    }

    @Test("filenames are escaped but line breaks are not normalised", arguments: [
        ("report.pdf", "filename=\"report.pdf\""),
        ("say \"hi\".txt", "filename=\"say %22hi%22.txt\""),
        ("a\rb", "filename=\"a%0Db\""),
        ("a\nb", "filename=\"a%0Ab\""),
        ("a\r\nb", "filename=\"a%0D%0Ab\""),
        ("日本語.txt", "filename=\"日本語.txt\""),
    ])
    func filenames(raw: String, expected: String) throws {
        #expect(try disposition(name: "f", filename: raw) == "Content-Disposition: form-data; name=\"f\"; \(expected)")
    }

    @Test("a NUL in a name or filename is an error naming it")
    func nulRejected() throws {
        #expect(throws: MultipartError.invalidText(field: .name("a\0b"), reason: .containsNUL)) {
            try disposition(name: "a\0b")
        }
        #expect(throws: MultipartError.invalidText(field: .filename("x\0.txt"), reason: .containsNUL)) {
            try disposition(name: "f", filename: "x\0.txt")
        }
    }

    @Test("text values go byte for byte as given, line breaks included (as curl sends them), and carry no Content-Type")
    func textValues() throws {
        var form = MultipartForm()
        form.addText(name: "t", value: "a\nb\rc\r\nd\n")
        let text = String(decoding: try collect(try encoder.prepare(form)), as: UTF8.self)
        #expect(text == "--B\r\nContent-Disposition: form-data; name=\"t\"\r\n\r\na\nb\rc\r\nd\n\r\n--B--\r\n")
    }

    @Test("file parts always carry a Content-Type, octet-stream when unknown")
    func fileContentType() throws {
        var form = MultipartForm()
        form.parts.append(.file(name: "f", filename: "noext", bytes: [1]))
        let text = String(decoding: try collect(try encoder.prepare(form)), as: UTF8.self)
        #expect(text.contains("filename=\"noext\"\r\nContent-Type: application/octet-stream\r\n\r\n"))
    }

    @Test("header injection through content types and extra headers is refused")
    func headerInjection() throws {
        var form = MultipartForm()
        form.parts.append(FormPart(name: "a", content: .text("x"), contentType: "text/plain\r\nX-Evil: 1"))
        #expect(throws: MultipartError.invalidText(field: .contentType("text/plain\r\nX-Evil: 1"), reason: .containsLineBreak)) {
            try encoder.prepare(form)
        }
        form.parts = [FormPart(name: "a", content: .text("x"), extraHeaders: [HeaderField(name: "Bad Name", value: "v")])]
        #expect(throws: MultipartError.invalidText(field: .header("Bad Name: v"), reason: .invalidHeaderName)) {
            try encoder.prepare(form)
        }
    }

    @Test("an injected boundary that occurs in in-memory content is refused")
    func boundaryInContent() throws {
        var form = MultipartForm()
        form.addText(name: "t", value: "look: --B inside")
        #expect(throws: MultipartError.boundaryInContent(partName: "t")) { try encoder.prepare(form) }
    }
}
