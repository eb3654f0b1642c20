import Foundation
import TestSupport
import Testing

/// `ferry send --print-curl`: the printed command, run by `sh`, makes curl send what Ferry sends,
/// as a server (werkzeug's parser behind Python's `http.server`) records both.
@Suite("ferry send --print-curl (the built binary, curl)", .serialized, .timeLimit(.minutes(2)))
struct PrintCurlCommandTests {
    @Test("the printed command sends the same method, headers, parts, filenames, types and bytes as Ferry")
    func sameRequest() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("it's a \"report\"; v2.csv", bytes: 70_000, fill: 0x52)
        let extra = dir.file("pic.png", bytes: 3_000, fill: 0x50)
        let server = try await RecordingHTTPServer.start()
        let arguments = ["send", "--url", server.url + "?from=ferry", "-X", "PUT", "-H", "X-Trace: 7 'quoted'",
                         "-H", "Authorization: Bearer s3cret-t0ken",
                         "-F", #"title="Trip; to \"Oslo\"""#, "--form-string", "note=@not-a-file;type=x/y",
                         "-F", "doc=@\(extra);type=image/x-test;filename=renamed \"one\".png",
                         "--form-string", "empty=", file]
        let ferry = try FerryProcess(arguments, stateHome: dir.path("state"))
        #expect(try await ferry.exitStatus() == 0, "\(ferry.errorText)")
        let sent = try await server.request(0)

        let print = try FerryProcess(["send", "--print-curl", "--show-secrets"] + arguments.dropFirst(), stateHome: dir.path("state"))
        #expect(try await print.exitStatus() == 0, "\(print.errorText)")
        let line = try #require(print.outputLines.first)
        #expect(print.outputLines.count == 1)
        let curl = try await CompletedProcess.run(["/bin/sh", "-c", line + " --fail --silent --show-error"])
        #expect(curl.status == 0, "\(line)\n\(curl.errors)")
        let replayed = try await server.request(1)

        #expect(replayed.parts == sent.parts)
        #expect(sent.parts.map(\.name) == ["title", "note", "doc", "empty", "file"])
        #expect(sent.parts.last?.filename == #"it's a "report"; v2.csv"#)
        #expect(replayed.method == "PUT")
        #expect(replayed.path == sent.path)
        #expect(replayed.header("X-Trace") == sent.header("X-Trace"))
        #expect(replayed.header("Authorization") == ["Bearer s3cret-t0ken"])
        #expect(replayed.header("Content-Type").first?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    @Test("secrets are masked unless --show-secrets; nothing is sent")
    func masksSecrets() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 10)
        let process = try FerryProcess(["send", "--print-curl", "--url", "http://al:pw@127.0.0.1:9/up", "-H", "Cookie: c=1",
                                        "--oauth2-bearer", "t0k", file], stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        let line = try #require(process.outputLines.first)
        for secret in ["pw", "c=1", "t0k"] { #expect(!line.contains(secret), "\(line)") }
        #expect(line.hasPrefix("curl 'http://al:********@127.0.0.1:9/up' -H 'Cookie: ********' -H 'Authorization: ********'"), "\(line)")
        #expect(process.errorText.contains("--show-secrets"))
    }
}
