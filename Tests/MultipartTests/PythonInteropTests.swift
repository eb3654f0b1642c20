import Foundation
import Multipart
import TestSupport
import Testing

@Suite("Interoperability: Python's werkzeug and python-multipart parse Ferry's bodies")
struct PythonInteropTests {
    private struct ParsedPart: Decodable, Equatable {
        var name: String
        var filename: String?
        var content_type: String?
        var size: Int
        var sha256: String
    }

    private struct Parsed: Decodable {
        var werkzeug: [ParsedPart]
        var python_multipart: [ParsedPart]
    }

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Interop/parse_multipart.py").path

    private func parse(_ body: MultipartBody, chunkSize: Int, in dir: TemporaryDirectory) throws -> Parsed {
        let bodyPath = try dir.write("body.bin", try collect(body, chunkSize: chunkSize))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, bodyPath, body.contentType]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "parse_multipart.py failed (run the README's test command, which installs werkzeug and python-multipart): \(errorText)")
        return try JSONDecoder().decode(Parsed.self, from: data)
    }

    @Test("names, filenames, content types and sha256 of every part round-trip through both parsers", arguments: [1, 7, 65_536])
    func corpusRoundTrips(chunkSize: Int) throws {
        let dir = TemporaryDirectory()
        let (form, expected) = try InteropCorpus.form(in: dir)
        let parsed = try parse(try MultipartEncoder().prepare(form), chunkSize: chunkSize, in: dir)
        let want = expected.map {
            ParsedPart(name: $0.name, filename: $0.filename, content_type: $0.contentType, size: $0.size, sha256: $0.sha256)
        }
        // werkzeug turns the WHATWG escape %22 back into a quote (it leaves %0D and %0A);
        // python-multipart reports the names exactly as sent.
        let wantWerkzeug = want.map { part in
            var part = part
            part.name = part.name.replacingOccurrences(of: "%22", with: "\"")
            part.filename = part.filename?.replacingOccurrences(of: "%22", with: "\"")
            return part
        }
        for (parser, parts, expected) in [("werkzeug", parsed.werkzeug, wantWerkzeug), ("python-multipart", parsed.python_multipart, want)] {
            try #require(parts.count == expected.count, "\(parser) saw \(parts.count) parts")
            for (got, wanted) in zip(parts, expected) {
                #expect(got == wanted, "\(parser)")
            }
        }
    }
}
