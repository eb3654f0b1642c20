import Foundation
import Receiver
import TestSupport
import Testing

/// `ferry serve` for other machines, run as users run it (uid 65534 under root).
@Suite("ferry serve for a network (the binary)")
struct NetworkServeTests {
    @Test("--host 0.0.0.0 or :: without a token is refused before listening; --no-auth with a token contradicts")
    func refusedWithoutToken() async throws {
        for host in ["0.0.0.0", "::"] {
            let server = try UnprivilegedServe(["--host", host])
            defer { Task { await server.stop() } }
            let status = await server.waitForExit()
            #expect(status != nil && status != 0, "it must not run")
            #expect(server.lines.isEmpty, "no URL: \(server.lines)")
            #expect(server.errorText.contains("--token") && server.errorText.contains("--no-auth"), "\(server.errorText)")
        }
        let both = try UnprivilegedServe(["--host", "0.0.0.0", "--no-auth", "--token", "abc"])
        defer { Task { await both.stop() } }
        #expect(await both.waitForExit() == 2, "a usage error")
        #expect(both.errorText.contains("--no-auth contradicts"))
    }

    @Test("the token from FERRY_SERVE_TOKEN and from --token-file guards every route")
    func tokenSources() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-token-\(UUID().uuidString)").path
        try "from-file-token\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let cases: [(String, [String], [String: String])] = [
            ("env-token-1", [], ["FERRY_SERVE_TOKEN": "env-token-1"]),
            ("from-file-token", ["--token-file", file], [:]),
        ]
        for (token, arguments, environment) in cases {
            let server = try UnprivilegedServe(arguments, environment: environment)
            defer { Task { await server.stop() } }
            let url = try #require(await server.waitForURL(), "no URL: \(server.errorText)")
            #expect(try await Curl.run([url + "/uploads"]).status == 401)
            #expect(try await Curl.run(["-F", "a=1", url + "/upload"]).status == 401)
            #expect(try await Curl.run(["--oauth2-bearer", token, url + "/uploads"]).status == 200)
            #expect(try await Curl.run(["-u", "u:\(token)", "-F", "a=1", url + "/upload"]).status == 200)
            #expect(!server.lines.joined().contains(token), "the token is not logged")
        }
    }

    @Test("under ulimit -n 160, 300 slow clients are cut while ordinary uploads land; no 500, no errno 24")
    func slowClientsUnderSmallLimit() async throws {
        let server = try UnprivilegedServe(["--header-timeout", "2", "--log-level", "error"], descriptorLimit: 160)
        defer { Task { await server.stop() } }
        let url = try #require(await server.waitForURL(), "no URL: \(server.errorText)")
        let port = try #require(URL(string: url)?.port)
        let source = server.root + "/upload.bin"
        try TestFile.write(RandomBytes.make(300_000, seed: 31), to: source)

        let slow = Task { try await blocking { try SlowClients.run(port: port, count: 300, for: 90) } }
        try await Task.sleep(for: .seconds(1))
        var uploads: [Curl.Result] = []
        for index in 0..<8 {
            uploads.append(
                try await Curl.run([
                    "--max-time", "60", "--retry", "10", "--retry-delay", "1",
                    "-F", Curl.fileField("f", path: source, filename: "u\(index).bin"), url + "/upload",
                ]))
        }
        let outcome = try await slow.value
        for result in uploads {
            #expect(result.status == 200, "\(result.body) \(result.errorOutput)")
        }
        #expect(outcome.cut == outcome.opened, "\(outcome.opened - outcome.cut) slow clients still open after 90 s")
        #expect(outcome.answered408 > 0)
        let statuses = server.logLines.compactMap { $0["status"] as? Int }
        #expect(!statuses.contains { $0 >= 500 }, "no 5xx: \(statuses)")
        #expect(!server.lines.joined().contains("errno 24") && !server.errorText.contains("errno 24"))
        #expect(statuses.filter { $0 == 200 }.count == 8)
        let after = try await Curl.run(["-F", Curl.fileField("f", path: source, filename: "after.bin"), url + "/upload"])
        #expect(after.status == 200, "still serving: \(after.errorOutput)")
    }
}
