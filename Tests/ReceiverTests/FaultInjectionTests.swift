import Foundation
import Receiver
import Testing

@Suite("Fault injection")
struct FaultInjectionTests {
    @Test("--fail-first answers 500 to the first N attempts of each filename, across requests")
    func failFirst() async throws {
        try await ReceiverHarness.run(faults: FaultPlan(failFirst: 2)) { harness in
            let path = try harness.directory.writeSource("a", RandomBytes.make(30_000, seed: 1))
            func upload(_ name: String) async throws -> Curl.Result {
                try await Curl.run(["-F", "note=n", "-F", Curl.fileField("f", path: path, filename: name), harness.url + "/upload"])
            }
            let a1 = try await upload("a.txt")
            #expect(a1.status == 500)
            #expect(a1.exitCode == 0, "the whole body was read before the answer: \(a1.errorOutput)")
            #expect(try ReceiverHarness.decodeError(a1.body).contains("attempt 1 of 2"))
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try await upload("b.txt").status == 500)
            #expect(try await upload("a.txt").status == 500)
            #expect(try harness.directory.uploadedNames() == [])
            let a3 = try await upload("a.txt")
            #expect(a3.status == 200)
            #expect(try await upload("b.txt").status == 500)
            #expect(try await upload("b.txt").status == 200)
            #expect(try harness.directory.uploadedNames() == ["a.txt", "b.txt"])
            #expect(harness.server.receivedUploads.count == 2)
            let statuses = harness.logs.all.filter { $0.method == "POST" }.map(\.status)
            #expect(statuses == [500, 500, 500, 200, 500, 200])
        }
    }

    @Test("--fail-first: a request carrying a failing file keeps none of its files")
    func failFirstMixedRequest() async throws {
        try await ReceiverHarness.run(faults: FaultPlan(failFirst: 1)) { harness in
            let path = try harness.directory.writeSource("m", Array("mixed".utf8))
            let warmUp = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "seen.txt"), harness.url + "/upload"])
            #expect(warmUp.status == 500)
            let mixed = try await Curl.run([
                "-F", Curl.fileField("f", path: path, filename: "seen.txt"),
                "-F", Curl.fileField("g", path: path, filename: "new.txt"),
                harness.url + "/upload",
            ])
            #expect(mixed.status == 500)
            #expect(try ReceiverHarness.decodeError(mixed.body).contains("new.txt"))
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("--fail-rate with a seed fails exactly the requests the seeded generator picks")
    func failRate() async throws {
        let seed: UInt64 = 20_240_601
        let rate = 0.5
        var generator = SplitMix64(seed: seed)
        let expected = (0..<12).map { _ in Double.random(in: 0..<1, using: &generator) < rate ? 500 : 200 }
        try #require(expected.contains(500) && expected.contains(200))
        try await ReceiverHarness.run(faults: FaultPlan(failRate: rate, seed: seed)) { harness in
            let path = try harness.directory.writeSource("r", Array("rate".utf8))
            var statuses: [Int] = []
            for index in 0..<expected.count {
                let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "r\(index).txt"), harness.url + "/upload"])
                statuses.append(result.status)
            }
            #expect(statuses == expected)
            let kept = expected.indices.filter { expected[$0] == 200 }.map { "r\($0).txt" }
            #expect(try harness.directory.uploadedNames() == kept.sorted())
        }
    }

    @Test("--status answers every upload with that status; 4xx/5xx keep nothing, 2xx keep the files")
    func status() async throws {
        try await ReceiverHarness.run(faults: FaultPlan(status: 503)) { harness in
            let path = try harness.directory.writeSource("s", Array("status".utf8))
            for _ in 0..<2 {
                let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "s.txt"), harness.url + "/upload"])
                #expect(result.status == 503)
                #expect(try ReceiverHarness.decodeError(result.body).contains("503"))
            }
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try await Curl.run([harness.url + "/"]).status == 200)
        }
        try await ReceiverHarness.run(faults: FaultPlan(status: 201)) { harness in
            let path = try harness.directory.writeSource("s", Array("status".utf8))
            let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "s.txt"), harness.url + "/upload"])
            #expect(result.status == 201)
            #expect(try ReceiverHarness.decodeRecord(result.body).files.map(\.savedAs) == ["s.txt"])
            #expect(try harness.directory.uploadedNames() == ["s.txt"])
        }
    }

    @Test("--delay waits before answering uploads")
    func delay() async throws {
        try await ReceiverHarness.run(faults: FaultPlan(delayMilliseconds: 600)) { harness in
            let path = try harness.directory.writeSource("d", Array("delay".utf8))
            let started = ContinuousClock.now
            let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "d.txt"), harness.url + "/upload"])
            let elapsed = ContinuousClock.now - started
            #expect(result.status == 200)
            #expect(elapsed >= .milliseconds(600), "took \(elapsed)")
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.durationMs >= 600)
        }
    }

    @Test("--drop-rate 1 closes the connection part-way through the body; nothing kept")
    func dropRate() async throws {
        try await ReceiverHarness.run(faults: FaultPlan(dropRate: 1)) { harness in
            let path = try harness.directory.writeSource("x", RandomBytes.make(200_000, seed: 2))
            let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "x.bin"), harness.url + "/upload"])
            #expect(result.status == 0, "no HTTP answer")
            #expect([52, 55, 56].contains(result.exitCode), "curl exit \(result.exitCode): \(result.errorOutput)")

            let body = RawMultipart.body([.file("f", filename: "raw.bin", RandomBytes.make(100_000, seed: 3))])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(10_000))
            let (closed, bytes) = try await connection.waitForClose(timeout: 10)
            #expect(closed)
            #expect(bytes.isEmpty, "no response bytes: \(String(decoding: bytes, as: UTF8.self))")
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.status == 0)
            #expect(entry.error?.contains("drop") == true)
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try await Curl.run([harness.url + "/"]).status == 200)
        }
    }

    @Test("--stall never answers within a client timeout, and shutdown still ends it promptly")
    func stall() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let server = try await ReceiverServer.start(
            ReceiverConfiguration(port: 0, directory: directory.uploads, faults: FaultPlan(stall: true), logLevel: .critical))
        let connection: RawHTTPConnection
        do {
            let path = try directory.writeSource("s", Array("stall".utf8))
            let result = try await Curl.run(["--max-time", "1.5", "-F", Curl.fileField("f", path: path, filename: "s.txt"), server.baseURL + "/upload"])
            #expect(result.exitCode == 28, "curl timed out: \(result.errorOutput)")
            #expect(result.status == 0)
            let home = try await Curl.run(["--max-time", "30", server.baseURL + "/"])
            #expect(home.status == 200, "other routes still answer")

            connection = try await RawHTTPConnection.connect(port: server.port)
            try await connection.send(RawMultipart.request(body: RawMultipart.body([.field("a", "b")])))
            let (closed, _) = try await connection.waitForClose(timeout: 1)
            #expect(!closed, "the stalled connection stays open")
        } catch {
            await server.shutdown()
            throw error
        }

        let started = ContinuousClock.now
        await server.shutdown()
        // Without the stopping flag the stalled request would hold the shutdown until the client
        // left (never); a generous bound, since a loaded machine (the full suite on 2 cores) has
        // taken 6-9 s where a quiet one takes 50 ms.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(try await connection.waitForClose(timeout: 5).closed)
        #expect(try directory.uploadedNames() == [])
    }
}
