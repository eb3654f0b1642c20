import Foundation
import Receiver
import Testing

/// Broken requests sent as raw bytes over a socket: each gets a 400 (when the connection is
/// still there to answer on) and leaves no file behind.
@Suite("Malformed and truncated bodies")
struct MalformedBodyTests {
    static let goodFile = RawMultipart.Part.file("f", filename: "good.bin", RandomBytes.make(40_000, seed: 7))

    /// Sends `bytes` as one request and returns the answer.
    static func send(_ bytes: [UInt8], port: Int) async throws -> RawHTTPConnection.Response? {
        let connection = try await RawHTTPConnection.connect(port: port)
        defer { connection.close() }
        try await connection.send(bytes)
        return try await connection.readResponse()
    }

    @Test("no closing boundary: 400 and no file")
    func missingClosingBoundary() async throws {
        try await ReceiverHarness.run { harness in
            let body = RawMultipart.body([.field("a", "b"), Self.goodFile], closed: false)
            let response = try #require(try await Self.send(RawMultipart.request(body: body), port: harness.server.port))
            #expect(response.status == 400)
            #expect(try ReceiverHarness.decodeError(response.body).contains("closing boundary"))
            #expect(try harness.directory.uploadedNames() == [])
            #expect(harness.server.receivedUploads.isEmpty)
        }
    }

    @Test("a file part cut off in the middle: 400 and no file")
    func cutInsideFile() async throws {
        try await ReceiverHarness.run { harness in
            let full = RawMultipart.body([Self.goodFile, Self.goodFile])
            let body = Array(full.prefix(full.count - 20_000))
            let response = try #require(try await Self.send(RawMultipart.request(body: body), port: harness.server.port))
            #expect(response.status == 400)
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test(
        "bad part headers: 400 and no file",
        arguments: [
            "Content-Disposition form-data; name=\"x\"",  // no colon
            "Bad Header: x",  // space in the header name
            "Content-Type: text/plain",  // no Content-Disposition
            "Content-Disposition: form-data; filename=\"x.txt\"",  // no name
            "Content-Disposition: attachment; name=\"x\"",  // not form-data
        ])
    func badPartHeaders(header: String) async throws {
        try await ReceiverHarness.run { harness in
            let broken = RawMultipart.Part(headers: [header], content: Array("data".utf8))
            let body = RawMultipart.body([Self.goodFile, broken, Self.goodFile])
            let response = try #require(try await Self.send(RawMultipart.request(body: body), port: harness.server.port))
            #expect(response.status == 400, "\(header): \(response.body)")
            #expect(try harness.directory.uploadedNames() == [], "\(header)")
            // The connection was read to the end, so it can carry another request.
        }
    }

    @Test("garbage instead of a multipart body: 400")
    func garbage() async throws {
        try await ReceiverHarness.run { harness in
            let body = Array("this is not multipart at all".utf8)
            let response = try #require(try await Self.send(RawMultipart.request(body: body), port: harness.server.port))
            #expect(response.status == 400)
            let empty = try #require(try await Self.send(RawMultipart.request(body: []), port: harness.server.port))
            #expect(empty.status == 400)
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("truncated upload, client half-closes: 400 on the same connection, no file")
    func truncatedHalfClose() async throws {
        try await ReceiverHarness.run { harness in
            let body = RawMultipart.body([Self.goodFile])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(25_000))
            try await Task.sleep(for: .milliseconds(300))  // let the server create the file
            try await connection.shutdownWrite()
            let response = try #require(try await connection.readResponse())
            #expect(response.status == 400)
            #expect(try ReceiverHarness.decodeError(response.body).contains("25000"))
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("connection reset in the middle of a file: the partial file is deleted")
    func connectionReset() async throws {
        try await ReceiverHarness.run { harness in
            let body = RawMultipart.body([Self.goodFile, Self.goodFile])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            try await connection.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(60_000))
            // Wait until the first file is complete on disk and the second one has started: only the
            // first is in the upload directory, the second is staged.
            let deadline = ContinuousClock.now + .seconds(20)
            while try harness.directory.uploadedNames().isEmpty || harness.directory.stagedNames().isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try harness.directory.uploadedNames() == ["good.bin"])
            #expect(try harness.directory.stagedNames().count == 1)
            try await connection.abort()
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.status == 400)
            #expect(entry.error?.contains("before the body was complete") == true || entry.error?.contains("incomplete") == true)
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try harness.directory.stagedNames() == [])
            // The server still works afterwards.
            let after = try #require(try await Self.send(RawMultipart.request(body: RawMultipart.body([Self.goodFile])), port: harness.server.port))
            #expect(after.status == 200)
            #expect(try harness.directory.uploadedNames() == ["good.bin"])
        }
    }

    @Test("control characters in a raw filename are replaced")
    func controlCharactersInFilename() async throws {
        try await ReceiverHarness.run { harness in
            let part = RawMultipart.Part.file("f", filename: "a\u{01}b\u{7F}c\u{1B}[31m.txt", Array("x".utf8))
            let response = try #require(try await Self.send(RawMultipart.request(body: RawMultipart.body([part])), port: harness.server.port))
            #expect(response.status == 200)
            #expect(try harness.directory.uploadedNames() == ["a_b_c_[31m.txt"])
        }
    }

    @Test("non-multipart content types get 415, a missing boundary 400")
    func contentTypes() async throws {
        try await ReceiverHarness.run { harness in
            let body = RawMultipart.body([Self.goodFile])
            for type in ["application/json", "text/plain", "multipart/mixed; boundary=\(RawMultipart.boundary)"] {
                let request = Array(RawMultipart.head(length: body.count, contentType: type).utf8) + body
                let response = try #require(try await Self.send(request, port: harness.server.port))
                #expect(response.status == 415, "\(type)")
            }
            let noType = Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8)
            #expect(try await Self.send(noType, port: harness.server.port)?.status == 415)
            let noBoundary = Array(RawMultipart.head(length: body.count, contentType: "multipart/form-data").utf8) + body
            let response = try #require(try await Self.send(noBoundary, port: harness.server.port))
            #expect(response.status == 400)
            #expect(try ReceiverHarness.decodeError(response.body).contains("boundary"))
            #expect(try harness.directory.uploadedNames() == [])
        }
    }

    @Test("Expect: 100-continue gets 100 before the body, and none when the body is too large")
    func expectContinue() async throws {
        try await ReceiverHarness.run(configure: { $0.limits.maxBodySize = 1_000_000 }) { harness in
            let body = RawMultipart.body([Self.goodFile])
            let connection = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { connection.close() }
            try await connection.send(RawMultipart.head(length: body.count, extraHeaders: ["Expect: 100-continue"]))
            let interim = try #require(try await connection.readResponse())
            #expect(interim.status == 100)
            try await connection.send(body)
            let final = try #require(try await connection.readResponse())
            #expect(final.status == 200)

            let big = try await RawHTTPConnection.connect(port: harness.server.port)
            defer { big.close() }
            try await big.send(RawMultipart.head(length: 2_000_000, extraHeaders: ["Expect: 100-continue"]))
            let refused = try #require(try await big.readResponse())
            #expect(refused.status == 413)
            #expect(try await big.waitForClose(timeout: 5).closed)
        }
    }
}
