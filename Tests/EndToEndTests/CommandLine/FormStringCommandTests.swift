import Foundation
import TestSupport
import Testing

/// `ferry send --form-string`: curl's literal text part, in order with `-F`.
@Suite("ferry send --form-string (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct FormStringCommandTests {
    @Test("the value is sent as it is (no file for @ or <, no ;type=), in command-line order with -F parts")
    func literalInOrder() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 5)
        let server = try await RecordingHTTPServer.start()
        let process = try FerryProcess(["send", "--url", server.url, "-F", "first=1", "--form-string", "at=@\(file)",
                                        "-F", "middle=2", "--form-string", "lt=<\(file);type=text/x", "--form-string", #"q="quoted""#,
                                        file], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        let request = try await server.request(0)
        #expect(request.parts.map(\.name) == ["first", "at", "middle", "lt", "q", "file"])
        #expect(request.parts[1].filename == nil, "a text part, not a file")
        #expect(request.parts[1].size == "@\(file)".utf8.count)
        #expect(request.parts[3].size == "<\(file);type=text/x".utf8.count)
        #expect(request.parts[3].content_type == nil)
        #expect(request.parts[4].size == #""quoted""#.utf8.count)
    }

    @Test("-F name=<file, and values holding line breaks, arrive byte for byte as curl sends them")
    func bytesAsGiven() async throws {
        let dir = TemporaryDirectory()
        let note = dir.path("note.txt")
        try TestFile.write(Array("hello\n".utf8), to: note)
        let server = try await RecordingHTTPServer.start()
        let parts = ["-F", "note=<\(note)", "-F", "lines=a\nb\rc", "--form-string", "literal=x\r\ny\n"]
        let ferry = try FerryProcess(["send", "--url", server.url] + parts + ["-F", "file=@\(note)"], stateHome: dir.path("state"))
        #expect(try await ferry.exitStatus() == 0, "\(ferry.errorText)")
        let curl = try await CompletedProcess.run(["/usr/bin/curl", "--fail", "--silent", "--show-error", server.url] + parts
            + ["-F", "file=@\(note)"])
        #expect(curl.status == 0, "\(curl.errors)")
        let sent = try await server.request(0)
        let replayed = try await server.request(1)
        #expect(sent.parts == replayed.parts)
        #expect(sent.parts.first?.size == 6, "hello and its LF, no CR added")
        #expect(sent.parts[1].size == "a\nb\rc".utf8.count)
    }

    @Test("--form-string without = is a usage error naming the option")
    func missingEquals() async throws {
        let dir = TemporaryDirectory()
        let process = try FerryProcess(["send", "--url", "http://127.0.0.1:9/", "--form-string", "novalue"], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 2)
        #expect(process.errorText.contains("--form-string 'novalue': expected NAME=VALUE"), "\(process.errorText)")
    }
}
