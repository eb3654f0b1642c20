import Foundation
import Receiver
import Synchronization
import TestSupport
import Testing

/// `ferry send` (the built binary, as an ordinary user) against endpoints that pause: one that
/// refuses the credentials (`ferry serve` with a token), one that asks for a pause with
/// `Retry-After` (`Tests/Interop/retry_after_server.py`).
@Suite("ferry send: endpoint pauses (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct EndpointPauseCommandTests {
    @Test("a 401 fails the endpoint's jobs under one line and exit 1; one request reached it; --json says why per job")
    func refusedCredentials() async throws {
        let dir = TemporaryDirectory()
        let files = (1...5).map { dir.file("f\($0).txt", bytes: 10) }
        let requests = Mutex(0)
        var configuration = ReceiverConfiguration(port: 0, directory: dir.path("received"))
        configuration.access = .token("right")
        configuration.onRequestLogged = { _ in requests.withLock { $0 += 1 } }
        try await withRunningReceiver(configuration) { server in
            let options = ["send", "--url", server.baseURL + "/upload", "-H", "Authorization: Bearer wrong", "--concurrency", "1"]
            let human = try FerryProcess(options + files, stateHome: dir.path("state"))
            #expect(try await human.exitStatus() == 1, "\(human.errorText)")
            let lines = human.outputLines
            #expect(lines.count == 2, "one line for the endpoint, one summary: \(lines)")
            #expect(lines.first == "refused \(server.baseURL) refused the credentials (401): none of its uploads is sent; "
                + "change them (-H, -u, --oauth2-bearer) and send again", "\(lines)")
            #expect(lines.last?.hasPrefix("0 succeeded, 5 failed, 0 cancelled") == true, "\(lines)")
            #expect(requests.withLock { $0 } == 1, "nothing more was sent after the 401")

            let json = try FerryProcess(options + ["--json"] + files, stateHome: dir.path("state"))
            #expect(try await json.exitStatus() == 1, "\(json.errorText)")
            let events = json.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let pause = events.first { $0["event"] as? String == "endpointPaused" }
            #expect(pause?["endpoint"] as? String == server.baseURL)
            #expect(pause?["reason"] as? String == "credentials")
            #expect(pause?["status"] as? Int == 401)
            let failures = events.filter { $0["event"] as? String == "failed" }.compactMap { $0["error"] as? String }
            #expect(failures.count == 5, "\(json.outputLines)")
            #expect(failures.dropFirst().allSatisfy { $0.hasPrefix("not sent: \(server.baseURL) answered 401 to an earlier upload") },
                    "\(failures)")
            #expect(requests.withLock { $0 } == 2)

            // Without credentials, nothing was refused: the endpoint wants some.
            let bare = try FerryProcess(["send", "--url", server.baseURL + "/upload", "--concurrency", "1"] + files,
                                        stateHome: dir.path("state"))
            #expect(try await bare.exitStatus() == 1, "\(bare.errorText)")
            #expect(bare.outputLines.first == "refused \(server.baseURL) wants credentials (401) and none were sent: "
                + "none of its uploads is sent; give them (-H, -u, --oauth2-bearer) and send again", "\(bare.outputLines)")
        }
    }

    @Test("a 429 with Retry-After: 2 holds the whole endpoint for 2 s (counted server-side); --json says when it pauses and resumes")
    func retryAfterPausesTheEndpoint() async throws {
        let dir = TemporaryDirectory()
        let files = (1...4).map { dir.file("f\($0).txt", bytes: 10) }
        let server = try PythonScriptServer.askingForPause(retryAfter: 2)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/upload"
        let process = try FerryProcess(["send", "--url", url, "--concurrency", "1", "--json"] + files, stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        _ = try await server.lines(atLeast: 5, where: { $0.hasPrefix("REQUEST ") })
        let times = { (prefix: String) in
            server.lines.filter { $0.hasPrefix(prefix) }.compactMap { Double($0.split(separator: " ").last ?? "") }
        }
        let paused = try #require(times("ANSWERED 429 ").first, "\(server.lines)")
        let arrivals = times("REQUEST ")
        #expect(arrivals.count == 5, "4 files and the retry: \(server.lines)")
        let during = arrivals.filter { $0 > paused && $0 < paused + 2 }
        #expect(during.isEmpty, "no request during the pause: \(server.lines)")
        let events = process.outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let names = events.compactMap { $0["event"] as? String }
        let pause = events.first { $0["event"] as? String == "endpointPaused" }
        #expect(pause?["endpoint"] as? String == "http://127.0.0.1:\(server.port)")
        #expect(pause?["reason"] as? String == "retryAfter")
        #expect(pause?["status"] as? Int == 429)
        #expect(pause?["retryIn"] as? Double == 2)
        let pausedAt = try #require(names.firstIndex(of: "endpointPaused"), "\(names)")
        let resumedAt = try #require(names.firstIndex(of: "endpointResumed"), "\(names)")
        #expect(!names[pausedAt..<resumedAt].contains("started"), "nothing starts while paused: \(names)")
        #expect(names.filter { $0 == "succeeded" }.count == 4, "\(names)")
    }
}
