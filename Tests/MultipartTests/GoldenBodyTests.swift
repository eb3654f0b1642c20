import Multipart
import TestSupport
import Testing

@Suite("Golden bodies with an injected boundary")
struct GoldenBodyTests {
    let encoder = MultipartEncoder(boundary: try! Boundary("XyZ"), mimeTypes: MIMETypes(text: "text/plain txt\nimage/png png"))

    @Test("text fields, a file from disk and in-memory bytes, in order")
    func mixedForm() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("notes.txt", Array("hello\r\nworld".utf8))
        var form = MultipartForm()
        form.addText(name: "title", value: "Trip")
        form.addFile(name: "file", path: path)
        form.parts.append(.file(name: "thumb", filename: "t.png", bytes: [0x89, 0x50, 0x4E, 0x47]))
        form.parts.append(FormPart(name: "meta", content: .text("{}"), contentType: "application/json",
                                   extraHeaders: [HeaderField(name: "X-Part", value: "1")]))
        let bytes = try collect(try encoder.prepare(form))
        let expected: [UInt8] = Array("""
            --XyZ\r
            Content-Disposition: form-data; name="title"\r
            \r
            Trip\r
            --XyZ\r
            Content-Disposition: form-data; name="file"; filename="notes.txt"\r
            Content-Type: text/plain\r
            \r
            hello\r
            world\r
            --XyZ\r
            Content-Disposition: form-data; name="thumb"; filename="t.png"\r
            Content-Type: image/png\r
            \r

            """.utf8) + [0x89, 0x50, 0x4E, 0x47] + Array("""
            \r
            --XyZ\r
            Content-Disposition: form-data; name="meta"\r
            Content-Type: application/json\r
            X-Part: 1\r
            \r
            {}\r
            --XyZ--\r

            """.utf8)
        #expect(bytes == expected)
    }

    @Test("an empty form is just the closing delimiter")
    func emptyForm() throws {
        let body = try encoder.prepare(MultipartForm())
        #expect(try collect(body) == Array("--XyZ--\r\n".utf8))
        #expect(body.contentLength == 9)
    }

    @Test("an empty file has an empty content and the right length")
    func emptyFile() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("empty.bin", [])
        var form = MultipartForm()
        form.addFile(name: "f", path: path)
        let body = try encoder.prepare(form)
        let text = String(decoding: try collect(body), as: UTF8.self)
        #expect(text == "--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"empty.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--XyZ--\r\n")
        #expect(body.contentLength == Int64(text.utf8.count))
    }

    @Test("filename and content type overrides win over the path and the table")
    func overrides() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write("a.txt", Array("x".utf8))
        var form = MultipartForm()
        form.addFile(name: "upload", path: path, filename: "report final.pdf", contentType: "application/x-custom")
        let text = String(decoding: try collect(try encoder.prepare(form)), as: UTF8.self)
        #expect(text.contains("name=\"upload\"; filename=\"report final.pdf\"\r\nContent-Type: application/x-custom\r\n"))
    }

    @Test("the Content-Type header value carries the boundary")
    func contentTypeHeader() throws {
        #expect(try encoder.prepare(MultipartForm()).contentType == "multipart/form-data; boundary=XyZ")
    }
}
