import Foundation
import Receiver
import Testing

/// Slow clients against the in-process receiver, with timeouts shortened to about a second.
/// The bounds waited for are generous (several times the timeout): they check that a slow
/// client is cut, not how fast.
@Suite("Timeouts for slow clients")
struct TimeoutTests {
    static let short = ReceiverTimeouts(
        header: .seconds(1), body: .seconds(1), minimumBodyRate: 1_000, rateWindow: .seconds(2), send: .seconds(2),
        keepAliveIdle: .seconds(1))

    @Test("a head that stops half-way is answered 408 and closed; a silent connection is closed")
    func slowHead() async throws {
        try await ReceiverHarness.run(configure: { $0.timeouts = Self.short }) { harness in
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send("POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
            let response = try #require(try await connection.readResponse(timeout: 15), "no answer")
            #expect(response.status == 408)
            #expect(response.head.lowercased().contains("connection: close"))
            #expect(try ReceiverHarness.decodeError(response.body).contains("--header-timeout"))
            #expect(try await connection.waitForClose(timeout: 10).closed)

            let silent = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { silent.close() }
            let ended = try await silent.waitForClose(timeout: 15)
            #expect(ended.closed && ended.bytes.isEmpty, "closed without a word: \(ended.bytes.count) bytes")
        }
    }

    @Test("a head sent one byte at a time is cut by the header timeout, not renewed by each byte")
    func trickledHead() async throws {
        try await ReceiverHarness.run(configure: { $0.timeouts = Self.short }) { harness in
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
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
    }

    @Test("a body that stops is answered 408, its partial file removed, and logged as 408")
    func stalledBody() async throws {
        try await ReceiverHarness.run(configure: { $0.timeouts = Self.short }) { harness in
            let body = RawMultipart.body([.file("f", filename: "stalled.bin", RandomBytes.make(400_000, seed: 8))])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(300_000))
            // Patience well past the 1 s body timeout: the in-process receiver shares the test
            // runner's threads with every other test.
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer")
            #expect(response.status == 408)
            #expect(try ReceiverHarness.decodeError(response.body).contains("--body-timeout"))
            #expect(try await connection.waitForClose(timeout: 10).closed)
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.status == 408)
            #expect(try harness.directory.uploadedNames() == [], "the partial file is removed")
        }
    }

    @Test("a body trickling under --min-body-rate is answered 408 and nothing is kept")
    func tricklingBody() async throws {
        // A body timeout far above the trickle's gaps, so only the rate can cut it, even on a
        // loaded machine where the 200 ms sleeps stretch.
        var timeouts = Self.short
        timeouts.body = .seconds(10)
        try await ReceiverHarness.run(configure: { [timeouts] in $0.timeouts = timeouts }) { harness in
            let body = RawMultipart.body([.file("f", filename: "slow.bin", RandomBytes.make(100_000, seed: 9))])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(300))
            // 10 bytes every 200 ms: 50 bytes a second, under the 1,000 asked; never a 1 s gap.
            var offset = 300
            let started = ContinuousClock.now
            while ContinuousClock.now - started < .seconds(20) {
                do {
                    try await connection.send(Array(body[offset..<offset + 10]))
                } catch {
                    break
                }
                offset += 10
                try await Task.sleep(for: .milliseconds(200))
                if let entry = harness.logs.all.first(where: { $0.method == "POST" }) {
                    #expect(entry.status == 408)
                    #expect(entry.error?.contains("--min-body-rate") == true, "\(String(describing: entry.error))")
                    break
                }
            }
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" }, "still open after 20 s")
            #expect(entry.status == 408)
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("an idle kept-alive connection is closed after the keep-alive timeout; uploads work as before")
    func keepAliveIdle() async throws {
        try await ReceiverHarness.run(configure: { $0.timeouts = Self.short }) { harness in
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            let body = RawMultipart.body([.file("f", filename: "ok.bin", RandomBytes.make(200_000, seed: 10))])
            // Both requests in one write, so no pause of the test's own can outlast the idle time.
            try await connection.send(RawMultipart.request(body: body) + Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(try await connection.readResponse()?.status == 200)
            #expect(try await connection.readResponse()?.status == 200, "kept alive between requests")
            let ended = try await connection.waitForClose(timeout: 15)
            #expect(ended.closed && ended.bytes.isEmpty, "closed silently when idle")
            #expect(try harness.directory.uploadedNames() == ["ok.bin"])
        }
    }
}
