import FileSystem
import Glibc
import Multipart
import TestSupport
import Testing

@Suite("Files whose names are not UTF-8")
struct NonUTF8PathTests {
    /// `caf` E9 `.txt`: "café.txt" in Latin-1.
    static let nameBytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)

    /// Creates `bytes` under `directory` with open(2) on the raw bytes; returns its mapped path.
    private func create(_ bytes: [UInt8], in directory: TemporaryDirectory, content: [UInt8]) -> String {
        let raw = (Array(directory.path.utf8) + [0x2F] + bytes + [0]).map { CChar(bitPattern: $0) }
        let descriptor = open(raw, O_CREAT | O_WRONLY | O_EXCL, 0o644)
        #expect(descriptor >= 0)
        #expect(content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == content.count)
        close(descriptor)
        return FileSystemName.decode(Array(directory.path.utf8) + [0x2F] + bytes)
    }

    @Test("the part carries the raw name bytes in filename= and the file's content")
    func encodesRawFilename() throws {
        let directory = TemporaryDirectory()
        let path = create(Self.nameBytes, in: directory, content: Array("contents".utf8))
        var form = MultipartForm()
        form.parts.append(.file(name: "file", path: path))
        let encoder = MultipartEncoder(boundary: try Boundary("B"), mimeTypes: MIMETypes(text: "text/plain txt"))
        let body = try collect(try encoder.prepare(form))
        let expected = Array("--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"".utf8) + Self.nameBytes
            + Array("\"\r\nContent-Type: text/plain\r\n\r\ncontents\r\n--B--\r\n".utf8)
        #expect(body == expected)
    }

    @Test("a quote in such a name is still escaped, the other bytes stay raw")
    func escapesQuotes() throws {
        let directory = TemporaryDirectory()
        let path = create([0x22, 0xFF], in: directory, content: [])
        var form = MultipartForm()
        form.parts.append(.file(name: "f", path: path))
        let body = try collect(try MultipartEncoder(boundary: try Boundary("B"), mimeTypes: MIMETypes(text: "")).prepare(form))
        let needle = Array("filename=\"%22".utf8) + [0xFF, 0x22]
        #expect(body.indices.contains { Array(body[$0...].prefix(needle.count)) == needle })
    }

    @Test("inspecting and reading a `<` value go through the raw bytes")
    func inspectsAndReads() throws {
        let directory = TemporaryDirectory()
        let path = create(Self.nameBytes, in: directory, content: Array("héllo".utf8))
        #expect(try FileInspector.inspect(path).size == 6)
        #expect(try CurlFormArgument.readText(at: path) == "héllo")
    }

    @Test("an error names the path with the undecodable byte as \\xE9")
    func errorDescription() throws {
        let directory = TemporaryDirectory()
        let missing = FileSystemName.decode(Array(directory.path.utf8) + [0x2F] + Self.nameBytes)
        let error = #expect(throws: MultipartError.self) { try FileInspector.inspect(missing) }
        #expect(error?.description == directory.path + "/caf\\xE9.txt: no such file")
    }
}
