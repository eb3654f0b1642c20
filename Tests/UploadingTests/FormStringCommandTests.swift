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

    @Test("--form-string without = is a usage error naming the option")
    func missingEquals() async throws {
        let dir = TemporaryDirectory()
        let process = try FerryProcess(["send", "--url", "http://127.0.0.1:9/", "--form-string", "novalue"], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 2)
        #expect(process.errorText.contains("--form-string 'novalue': expected NAME=VALUE"), "\(process.errorText)")
    }
}
