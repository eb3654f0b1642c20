import Foundation
import Multipart
import MultipartKit
import NIOCore
import TestSupport
import Testing

@Suite("Interoperability: vapor/multipart-kit parses Ferry's bodies")
struct MultipartKitInteropTests {
    /// Feeds the body to multipart-kit's streaming parser in pieces and collects the parts.
    private func parse(_ body: MultipartBody, pieceSize: Int) throws -> [MultipartKit.MultipartPart] {
        let parser = MultipartParser(boundary: body.boundary.value)
        var parts: [MultipartKit.MultipartPart] = []
        var headers = HTTPHeaders()
        var data = ByteBuffer()
        parser.onHeader = { name, value in headers.add(name: name, value: value) }
        parser.onBody = { chunk in data.writeBuffer(&chunk) }
        parser.onPartComplete = {
            parts.append(MultipartKit.MultipartPart(headers: headers, body: data))
            headers = HTTPHeaders()
            data = ByteBuffer()
        }
        let reader = body.makeReader(chunkSize: pieceSize)
        while let chunk = try reader.nextChunk() {
            try parser.execute(chunk)
        }
        return parts
    }

    /// multipart-kit's `name` accessor splits the header on `;` and `=` without regard to quotes,
    /// so for names holding those it cannot report the name; the Python parsers check those.
    private func kitCanReadName(_ name: String) -> Bool {
        !name.contains(";") && !name.contains("=")
    }

    @Test("content types, bytes (sha256) and names of the corpus round-trip", arguments: [1, 7, 65_536])
    func corpusRoundTrips(pieceSize: Int) throws {
        let dir = TemporaryDirectory()
        let (form, expected) = try InteropCorpus.form(in: dir)
        let parts = try parse(try MultipartEncoder().prepare(form), pieceSize: pieceSize)
        try #require(parts.count == expected.count)
        for (part, want) in zip(parts, expected) {
            #expect(part.headers.first(name: "Content-Type") == want.contentType)
            #expect(InteropCorpus.sha256(Array(buffer: part.body)) == want.sha256, "part \(want.name)")
            if kitCanReadName(want.name) {
                #expect(part.name == want.name)
            }
        }
    }

    @Test("a simple form decodes with multipart-kit's FormDataDecoder")
    func formDataDecoder() throws {
        struct Upload: Decodable {
            var title: String
            var count: Int
            var file: Data
        }
        var form = MultipartForm()
        form.addText(name: "title", value: "日本 trip")
        form.addText(name: "count", value: "3")
        form.parts.append(.file(name: "file", filename: "a.bin", bytes: [0, 1, 2, 255]))
        let body = try MultipartEncoder().prepare(form)
        let decoded = try FormDataDecoder().decode(Upload.self, from: try collect(body), boundary: body.boundary.value)
        #expect(decoded.title == "日本 trip")
        #expect(decoded.count == 3)
        #expect(Array(decoded.file) == [0, 1, 2, 255])
    }
}
