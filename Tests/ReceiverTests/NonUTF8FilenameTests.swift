import FileSystem
import Glibc
import NIOCore
@testable import Receiver
import Testing

@Suite("Filenames that are not UTF-8")
struct NonUTF8FilenameTests {
    /// `caf` E9 `.txt`: "café.txt" in Latin-1, as curl and `ferry send` send it (raw).
    static let nameBytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)

    static func body(filename: [UInt8], content: [UInt8]) -> [UInt8] {
        Array("preamble\r\n--\(RawMultipart.boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi".utf8)
            + Array("\r\n--\(RawMultipart.boundary)\r\nContent-Disposition: form-data; name=\"f\"; filename=\"".utf8)
            + filename + Array("\"\r\nContent-Type: text/plain\r\n\r\n".utf8) + content
            + Array("\r\n--\(RawMultipart.boundary)--\r\nepilogue \r\n--x".utf8)
    }

    @Test("the parser hands over every header value's raw bytes, however the body is split", arguments: [1, 2, 7, 4096])
    func parserKeepsRawValues(chunkSize: Int) throws {
        let content = Array("a\r\n--\(RawMultipart.boundary.dropLast())x\r\n\r\n--".utf8)  // almost a delimiter, twice
        let body = Self.body(filename: Self.nameBytes, content: content)
        var parser = FormDataParser(boundary: RawMultipart.boundary)
        var headers: [FormDataParser.Header] = []
        var start = 0
        while start < body.count {
            parser.feed(ByteBuffer(bytes: body[start..<min(body.count, start + chunkSize)]))
            start += chunkSize
            while let event = try parser.next() {
                if case .partBegan(let block) = event { headers += block }
            }
        }
        try parser.finish()
        #expect(headers == [
            .init(name: "Content-Disposition", value: Array("form-data; name=\"note\"".utf8)),
            .init(name: "Content-Disposition", value: Array("form-data; name=\"f\"; filename=\"".utf8) + Self.nameBytes + [0x22]),
            .init(name: "Content-Type", value: Array("text/plain".utf8)),
        ])
    }

    @Test("the file is saved under its raw name and the log shows the byte escaped")
    func savedUnderRawName() async throws {
        try await ReceiverHarness.run { harness in
            let body = Self.body(filename: Self.nameBytes, content: Array("hello".utf8))
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(RawMultipart.request(body: body))
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 200, "\(response.body)")
            let record = try ReceiverHarness.decodeRecord(response.body)
            #expect(record.fields == ["note": ["hi"]])
            #expect(record.files.map(\.filename) == ["caf\\xE9.txt"])
            #expect(record.files.map(\.savedAs) == ["caf\\xE9.txt"])
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.files.map(\.filename) == ["caf\\xE9.txt"])

            #expect(Self.content(of: Array(harness.directory.uploads.utf8) + [0x2F] + Self.nameBytes) == Array("hello".utf8))
        }
    }

    @Test("an upload directory whose name is not UTF-8 is made and used under its raw bytes")
    func uploadDirectoryNotUTF8() async throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let directory = root.root + "/up\u{EFFF}"  // "up" FF, as FileSystemName decodes --dir
        try await ReceiverHarness.run(configure: { $0.directory = directory }) { harness in
            let body = Self.body(filename: Array("a.txt".utf8), content: Array("hello".utf8))
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(RawMultipart.request(body: body))
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 200, "\(response.body)")
            #expect(Self.content(of: Array((root.root + "/up").utf8) + [0xFF] + Array("/a.txt".utf8)) == Array("hello".utf8))
        }
    }

    /// The first bytes of the file at the raw path `path`, or nil when it cannot be opened.
    private static func content(of path: [UInt8]) -> [UInt8]? {
        let descriptor = open((path + [0]).map { CChar(bitPattern: $0) }, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        return count < 0 ? nil : Array(buffer.prefix(count))
    }
}
