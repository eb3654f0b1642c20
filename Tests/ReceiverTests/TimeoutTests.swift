import Foundation
import Receiver
import Testing
import TestSupport

/// Slow clients against `ferry serve` in a process of its own (as an ordinary user), with
/// timeouts shortened to about a second. Its own process, because an in-process receiver shares
/// the test runner's threads with every other test, and a second-long timeout then measures the
/// runner's load, not the server. The bounds waited for are generous (several times the
/// timeout): they check that a slow client is cut, not how fast. The first bytes go out in the
/// same call as the connect: a loaded runner can otherwise pause longer than the header timeout
/// between the two, and the server rightly closes a connection that said nothing.
@Suite("Timeouts for slow clients")
struct TimeoutTests {
    /// `ferry serve` with every timeout about a second (the rate window is serve's 10 s).
    static func serve(bodyTimeout: Int = 1) async throws -> SpawnedReceiver {
        try await SpawnedReceiver.start([
            "--header-timeout", "1", "--body-timeout", "\(bodyTimeout)", "--min-body-rate", "1000",
            "--send-timeout", "2", "--keepalive-timeout", "1",
        ])
    }

    /// The port `server` listens on.
    static func port(of server: SpawnedReceiver) throws -> Int {
        guard let port = URL(string: server.baseURL)?.port else { throw TestFailure("no port in \(server.baseURL)") }
        return port
    }

    /// The first POST `server` has logged so far.
    static func firstPost(_ server: SpawnedReceiver) -> [String: Any]? {
        server.logLines.first { $0["method"] as? String == "POST" }
    }

    /// The first logged POST, waited for up to `seconds`.
    static func loggedPost(_ server: SpawnedReceiver, within seconds: Int = 20) async -> [String: Any]? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let entry = firstPost(server) { return entry }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test("a head that stops half-way is answered 408 and closed; a silent connection is closed")
    func slowHead() async throws {
        let server = try await Self.serve()
        defer { server.terminate() }
        let connection = try await RawHTTPConnection.connect(
            port: try Self.port(of: server), sending: Array("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty".utf8))
        defer { connection.close() }
        let response = try #require(try await connection.readResponse(timeout: 15), "no answer")
        #expect(response.status == 408)
        #expect(response.head.lowercased().contains("connection: close"))
        #expect(try ReceiverHarness.decodeError(response.body).contains("--header-timeout"))
        #expect(try await connection.waitForClose(timeout: 10).closed)

        let silent = try await RawHTTPConnection.connect(port: try Self.port(of: server))
        defer { silent.close() }
        let ended = try await silent.waitForClose(timeout: 15)
        #expect(ended.closed && ended.bytes.isEmpty, "closed without a word: \(ended.bytes.count) bytes")
    }

    @Test("a head sent one byte at a time is cut by the header timeout, not renewed by each byte")
    func trickledHead() async throws {
        let server = try await Self.serve()
        defer { server.terminate() }
        let connection = try await RawHTTPConnection.connect(port: try Self.port(of: server))
        defer { connection.close() }
        let started = ContinuousClock.now
        var cut = false
        for byte in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8 {
            do {
                try await connection.send([byte])
            } catch {
                cut = true
                break
            }
            try await Task.sleep(for: .milliseconds(200))
            if ContinuousClock.now - started > .seconds(15) { break }
        }
        let ended = try await connection.waitForClose(timeout: 10)
        #expect(cut || ended.closed, "the connection was still open after 15 s of a trickled head")
    }

    @Test("a body that stops is answered 408, its partial file removed, and logged as 408")
    func stalledBody() async throws {
        let server = try await Self.serve()
        defer { server.terminate() }
        let body = RawMultipart.body([.file("f", filename: "stalled.bin", RandomBytes.make(400_000, seed: 8))])
        let connection = try await RawHTTPConnection.connect(
            port: try Self.port(of: server), sending: Array(RawMultipart.head(length: body.count).utf8) + body.prefix(300_000))
        defer { connection.close() }
        // Patience well past the 1 s body timeout, for a loaded machine.
        let response = try #require(try await connection.readResponse(timeout: 60), "no answer")
        #expect(response.status == 408)
        #expect(try ReceiverHarness.decodeError(response.body).contains("--body-timeout"))
        #expect(try await connection.waitForClose(timeout: 10).closed)
        let entry = try #require(await Self.loggedPost(server))
        #expect(entry["status"] as? Int == 408)
        #expect(try server.savedNames() == [], "the partial file is removed")
    }

    @Test("a body trickling under --min-body-rate is answered 408 and nothing is kept")
    func tricklingBody() async throws {
        // A body timeout far above the trickle's gaps, so only the rate can cut it, even on a
        // loaded machine where the 200 ms sleeps stretch (a full run at load 21 once held this
        // sending loop for over 10 s); the rate is judged over 10 s windows.
        let server = try await Self.serve(bodyTimeout: 30)
        defer { server.terminate() }
        let body = RawMultipart.body([.file("f", filename: "slow.bin", RandomBytes.make(100_000, seed: 9))])
        let connection = try await RawHTTPConnection.connect(
            port: try Self.port(of: server), sending: Array(RawMultipart.head(length: body.count).utf8) + body.prefix(300))
        defer { connection.close() }
        // 10 bytes every 200 ms: 50 bytes a second, under the 1,000 asked; never a 1 s gap.
        var offset = 300
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(40) {
            do {
                try await connection.send(Array(body[offset..<offset + 10]))
            } catch {
                break
            }
            offset += 10
            try await Task.sleep(for: .milliseconds(200))
            if let entry = Self.firstPost(server) {
                #expect(entry["status"] as? Int == 408)
                let error = entry["error"] as? String
                #expect(error?.contains("--min-body-rate") == true, "\(String(describing: error))")
                break
            }
        }
        let entry = try #require(await Self.loggedPost(server), "still open after 40 s")
        #expect(entry["status"] as? Int == 408)
        #expect(try server.savedNames() == [])
    }

    @Test("an idle kept-alive connection is closed after the keep-alive timeout; uploads work as before")
    func keepAliveIdle() async throws {
        let server = try await Self.serve()
        defer { server.terminate() }
        let body = RawMultipart.body([.file("f", filename: "ok.bin", RandomBytes.make(200_000, seed: 10))])
        // Both requests in one write, so no pause of the test's own can outlast the idle time.
        let connection = try await RawHTTPConnection.connect(
            port: try Self.port(of: server),
            sending: RawMultipart.request(body: body) + Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        defer { connection.close() }
        #expect(try await connection.readResponse()?.status == 200)
        #expect(try await connection.readResponse()?.status == 200, "kept alive between requests")
        let ended = try await connection.waitForClose(timeout: 15)
        #expect(ended.closed && ended.bytes.isEmpty, "closed silently when idle")
        #expect(try server.savedNames() == ["ok.bin"])
    }
}
