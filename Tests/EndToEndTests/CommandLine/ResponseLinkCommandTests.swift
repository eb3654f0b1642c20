import Foundation
import TestSupport
import Testing

/// `ferry send` carries the link a JSON answer gives: in the `succeeded` event and on the last line.
@Suite("ferry send: the answer's link (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct ResponseLinkCommandTests {
    @Test("the top-level url by default, a JSON pointer with --response-field; --json's succeeded event has it as link")
    func link() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 5)
        let server = try await RecordingHTTPServer.start()
        let human = try FerryProcess(["send", "--url", server.url, file], stateHome: dir.path("state"))
        #expect(try await human.exitStatus() == 0, "\(human.errorText)")
        #expect(human.outputLines.last == "http://top.example/0", "\(human.outputLines)")

        let json = try FerryProcess(["send", "--json", "--response-field", "/data/url", "--url", server.url, file],
                                    stateHome: dir.path("state"))
        #expect(try await json.exitStatus() == 0, "\(json.errorText)")
        let succeeded = try #require(json.jsonEvents.first { $0["event"] as? String == "succeeded" })
        #expect(succeeded["link"] as? String == "http://files.example/1")

        let bad = try FerryProcess(["send", "--response-field", "data", "--url", server.url, file], stateHome: dir.path("state"))
        #expect(try await bad.exitStatus() == 2)
        #expect(bad.errorText.contains("not a JSON pointer"))
    }
}
