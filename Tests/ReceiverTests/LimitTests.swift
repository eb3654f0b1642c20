import Foundation
import Receiver
import Testing

@Suite("Body and part limits")
struct LimitTests {
    @Test("Content-Length over --max-body: 413 before any body is read, connection closed")
    func contentLengthTooLarge() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 10_000 }) { harness in
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(RawMultipart.head(length: 10_001))
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 413)
            #expect(try ReceiverHarness.decodeError(response.body).contains("10000"))
            #expect(try await connection.waitForClose(timeout: 5).closed)
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.status == 413)
            #expect(entry.bytes == 0)
        }
    }

    @Test("a 413 ends the connection even where a spawned process holds a copy of its socket")
    func tooLargeWithSocketHeldElsewhere() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 10_000 }) { harness in
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            // A first request, so the receiver has accepted the connection before it is copied.
            try await connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await connection.readResponse()?.status == 200)
            let holder = try SocketHolder(servingPort: harness.server.port, peerPort: connection.localPort)
            defer { holder.stop() }
            #expect(holder.holdsSocket)
            try await connection.send(RawMultipart.head(length: 10_001))
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 413)
            #expect(try await connection.waitForClose(timeout: 5).closed)
        }
    }

    @Test("curl sending a file over --max-body gets 413 and nothing is kept")
    func curlTooLarge() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 50_000 }) { harness in
            let path = try harness.directory.writeSource("big", RandomBytes.make(60_000, seed: 3))
            let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "big.bin"), harness.url + "/upload"])
            #expect(result.status == 413, "\(result.body) \(result.errorOutput)")
            #expect(try harness.directory.uploadedNames() == [])
            let small = try harness.directory.writeSource("small", RandomBytes.make(40_000, seed: 4))
            let fits = try await Curl.run(["-F", Curl.fileField("f", path: small, filename: "small.bin"), harness.url + "/upload"])
            #expect(fits.status == 200)
        }
    }

    @Test("a chunked body over --max-body: 413 once the bytes read pass the limit, nothing kept")
    func chunkedTooLarge() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 20_000 }) { harness in
            let body = RawMultipart.body([.file("f", filename: "chunked.bin", RandomBytes.make(30_000, seed: 5))])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            var request = Array(RawMultipart.head(length: nil).utf8)
            request += Array(String(body.count, radix: 16).utf8) + [13, 10] + body + [13, 10]
            try await connection.send(request)
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 413)
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.bytes > 20_000)
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("a chunked body under the limit is stored")
    func chunkedFits() async throws {
        try await ReceiverHarness.run { harness in
            let content = RandomBytes.make(30_000, seed: 6)
            let body = RawMultipart.body([.file("f", filename: "chunked.bin", content)])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            var request = Array(RawMultipart.head(length: nil).utf8)
            for piece in stride(from: 0, to: body.count, by: 7_000) {
                let chunk = body[piece..<min(piece + 7_000, body.count)]
                request += Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
            }
            request += Array("0\r\n\r\n".utf8)
            try await connection.send(request)
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 200)
            #expect(try harness.directory.uploadedBytes("chunked.bin") == content)
        }
    }

    @Test("more parts than --max-parts: 413 and nothing kept")
    func tooManyParts() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxParts = 3 }) { harness in
            let path = try harness.directory.writeSource("p", Array("part".utf8))
            var arguments: [String] = []
            for index in 0..<4 { arguments += ["-F", Curl.fileField("f", path: path, filename: "p\(index).txt")] }
            let result = try await Curl.run(arguments + [harness.url + "/upload"])
            #expect(result.status == 413)
            #expect(try ReceiverHarness.decodeError(result.body).contains("more than 3 parts"))
            #expect(try harness.directory.uploadedNames() == [])
            let fields = try await Curl.run(["-F", "a=1", "-F", "b=2", "-F", "c=3", "-F", "d=4", harness.url + "/upload"])
            #expect(fields.status == 413)
            let exact = try await Curl.run(["-F", "a=1", "-F", "b=2", "-F", Curl.fileField("f", path: path, filename: "ok.txt"), harness.url + "/upload"])
            #expect(exact.status == 200)
            #expect(try harness.directory.uploadedNames() == ["ok.txt"])
        }
    }

    @Test("a text field over the field limit: 413")
    func fieldTooLarge() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxFieldSize = 1_000 }) { harness in
            let result = try await Curl.run(["--form-string", "big=" + String(repeating: "x", count: 1_001), harness.url + "/upload"])
            #expect(result.status == 413)
            let fits = try await Curl.run(["--form-string", "big=" + String(repeating: "x", count: 1_000), harness.url + "/upload"])
            #expect(try ReceiverHarness.decodeRecord(fits.body).fields["big"]?.first?.count == 1_000)
        }
    }
}

@Suite("Uploads at once")
struct UploadLimitTests {
    @Test("past --max-uploads an upload is answered 503 with Retry-After and nothing is kept; the held one still lands")
    func tooManyUploads() async throws {
        try await ReceiverHarness.run(configure: { $0.capacity = ReceiverCapacity(maxUploads: 1) }) { harness in
            let content = RandomBytes.make(50_000, seed: 41)
            let body = RawMultipart.body([.file("f", filename: "held.bin", content)])
            let held = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { held.close() }
            try await held.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(20_000))
            // The held upload takes its slot once the receiver starts on it; until then another
            // upload may still get through, so ask until one is refused.
            let path = try harness.directory.writeSource("other", RandomBytes.make(1_000, seed: 42))
            var landed: [String] = []
            var refused: Curl.Result?
            for attempt in 0..<300 where refused == nil {
                let result = try await Curl.run(["-i", "-F", Curl.fileField("f", path: path, filename: "o\(attempt).bin"), harness.url + "/upload"])
                if result.status == 503 { refused = result } else { landed.append("o\(attempt).bin") }
                try await Task.sleep(for: .milliseconds(100))
            }
            let answer = try #require(refused, "never refused")
            #expect(answer.body.lowercased().contains("retry-after: 1"))
            #expect(answer.body.contains("--max-uploads"))
            try await held.send(Array(body.dropFirst(20_000)))
            #expect(try await held.readResponse()?.status == 200)
            #expect(try harness.directory.uploadedBytes("held.bin") == content)
            #expect(try harness.directory.uploadedNames().sorted() == (["held.bin"] + landed).sorted(), "the refused one kept nothing")
            let after = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "other.bin"), harness.url + "/upload"])
            #expect(after.status == 200, "the slot is free again")
        }
    }

    @Test("connections that sent only a head or the start of a preamble hold no upload slot: past --max-uploads of them, uploads land")
    func slowClientsHoldNoSlot() async throws {
        try await ReceiverHarness.run(configure: {
            $0.capacity = ReceiverCapacity(maxUploads: 2)
            $0.timeouts = RequestFramingTests.patient
        }) { harness in
            let content = RandomBytes.make(10_000, seed: 43)
            let body = RawMultipart.body([.file("f", filename: "slow.bin", content)])
            var held: [RawHTTPConnection] = []
            defer { held.forEach { $0.close() } }
            for index in 0..<6 {
                let head = RawMultipart.head(length: body.count, extraHeaders: ["Expect: 100-continue"])
                let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: Array(head.utf8))
                held.append(connection)
                // 100 Continue goes out as the handler starts (only while a slot is free): the
                // receiver has begun on this upload.
                let interim = try #require(try await connection.readResponse(timeout: 60), "no answer to held upload \(index)")
                #expect(interim.status == 100, "held upload \(index): \(interim.head)")
                if index.isMultiple(of: 2) {
                    try await connection.send(Array(body.prefix(20)))  // part of the first boundary line
                }
            }
            let path = try harness.directory.writeSource("normal", RandomBytes.make(1_000, seed: 44))
            for attempt in 0..<3 {
                let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "n\(attempt).bin"), harness.url + "/upload"])
                #expect(result.status == 200, "\(result.body)")
            }
            try await held[1].send(body)
            #expect(try await held[1].readResponse(timeout: 60)?.status == 200, "a held upload goes on when its body comes")
            #expect(try harness.directory.uploadedNames() == ["n0.bin", "n1.bin", "n2.bin", "slow.bin"])
            #expect(try harness.directory.uploadedBytes("slow.bin") == content)
        }
    }
}
