import Foundation
@testable import Receiver
import Testing

@Suite("What a request head says about its body")
struct RequestFramingTests {
    /// Timeouts far longer than any wait of these tests: an answer that comes is not a timeout's.
    static let patient = ReceiverTimeouts(
        header: .seconds(600), body: .seconds(600), minimumBodyRate: 0, send: .seconds(600), keepAliveIdle: .seconds(600))

    /// A receiver with a 10,000-byte body limit and ``patient`` timeouts.
    static func run(_ body: (ReceiverHarness) async throws -> Void) async throws {
        try await ReceiverHarness.run(configure: {
            $0.limits.maxBodySize = 10_000
            $0.timeouts = patient
        }, body)
    }

    @Test(
        "Content-Length against the limit as digit strings, whatever their size",
        arguments: [
            ("10000", nil), ("0", nil), ("00000000000000000000010000", nil), ("10001", 413), ("99999", 413),
            ("00000000000000000000010001", 413), ("9223372036854775807", 413), ("9223372036854775808", 413),
            ("18446744073709551615", 413), ("123456789012345678901234567890", 413), ("", 400), ("12abc", 400),
            ("-1", 400), ("+5", 400), ("1 0", 400), ("0x10", 400), ("١٢", 400),
        ] as [(String, Int?)])
    func contentLength(value: String, status: Int?) {
        let refusal = RequestFraming.refusal(contentLength: value, transferEncoding: nil, maxBodySize: 10_000)
        #expect(refusal?.httpStatus == status, "\(value)")
    }

    @Test("a limit of 0 takes only an empty body; no Content-Length is no refusal")
    func edges() {
        #expect(RequestFraming.refusal(contentLength: "0", transferEncoding: nil, maxBodySize: 0) == nil)
        #expect(RequestFraming.refusal(contentLength: "000", transferEncoding: nil, maxBodySize: 0) == nil)
        #expect(RequestFraming.refusal(contentLength: "1", transferEncoding: nil, maxBodySize: 0)?.httpStatus == 413)
        #expect(RequestFraming.refusal(contentLength: nil, transferEncoding: nil, maxBodySize: 0) == nil)
        let max = String(Int64.max)
        #expect(RequestFraming.refusal(contentLength: max, transferEncoding: nil, maxBodySize: .max) == nil)
    }

    @Test(
        "Transfer-Encoding: only chunked, any case, spaces around it",
        arguments: [
            ("chunked", nil), ("Chunked", nil), ("CHUNKED", nil), (" chunked\t", nil), ("gzip, chunked", 501),
            ("gzip,chunked", 501), ("chunked, chunked", 501), ("identity", 501), ("deflate", 501), ("x-chunked", 501),
        ] as [(String, Int?)])
    func transferCoding(value: String, status: Int?) {
        let refusal = RequestFraming.refusal(contentLength: nil, transferEncoding: value, maxBodySize: 10_000)
        #expect(refusal?.httpStatus == status, "\(value)")
        if status != nil {
            #expect(refusal?.description.contains("'\(value.trimmingCharacters(in: .whitespaces))'") == true)
        }
    }

    @Test(
        "a Content-Length over the limit that no Int64 holds: 413 at once on every route, no 100 Continue, closed",
        arguments: ["POST /upload", "POST /files/", "PATCH /files/0123456789abcdef0123456789abcdef", "GET /"])
    func hugeContentLength(target: String) async throws {
        try await Self.run { harness in
            let head = "\(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=\(RawMultipart.boundary)\r\n"
                + "Tus-Resumable: 1.0.0\r\nExpect: 100-continue\r\nContent-Length: 9223372036854775808\r\n\r\n"
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: Array(head.utf8))
            defer { connection.close() }
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer before the timeouts")
            #expect(response.status == 413, "\(response.head)")
            #expect(try ReceiverHarness.decodeError(response.body).contains("--max-body"))
            #expect(try await connection.waitForClose(timeout: 30).closed)
            let entry = try #require(await harness.logs.waitFor { $0.status == 413 })
            #expect(entry.bytes == 0)
        }
    }

    @Test("Content-Length 2⁶⁴ − 1 with a multipart body under way: 413 at once, nothing stored")
    func largestParsedContentLength() async throws {
        try await Self.run { harness in
            let body = RawMultipart.body([.file("f", filename: "huge.bin", RandomBytes.make(5_000, seed: 61))], closed: false)
            let request = Array(RawMultipart.head(length: 0).replacingOccurrences(of: "Content-Length: 0", with: "Content-Length: 18446744073709551615").utf8)
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: request + body)
            defer { connection.close() }
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer before the timeouts")
            #expect(response.status == 413)
            #expect(try await connection.waitForClose(timeout: 30).closed)
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try harness.directory.stagedNames() == [])
        }
    }

    @Test(
        "a Content-Length that is not a number, or past what the parser holds: 400 at once, closed",
        arguments: ["12abc", "-5", "18446744073709551616"])
    func malformedContentLength(value: String) async throws {
        try await Self.run { harness in
            let head = RawMultipart.head(length: 0).replacingOccurrences(of: "Content-Length: 0", with: "Content-Length: \(value)")
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: Array(head.utf8))
            defer { connection.close() }
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer before the timeouts")
            #expect(response.status == 400)
            #expect(try await connection.waitForClose(timeout: 30).closed)
        }
    }

    @Test(
        "a transfer coding other than chunked: 501 naming it, at once, closed, nothing stored",
        arguments: [["Transfer-Encoding: gzip, chunked"], ["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"]])
    func unsupportedTransferCoding(lines: [String]) async throws {
        try await Self.run { harness in
            let body = RawMultipart.body([.file("f", filename: "coded.bin", RandomBytes.make(2_000, seed: 62))])
            let head = RawMultipart.head(length: nil).replacingOccurrences(
                of: "Transfer-Encoding: chunked", with: lines.joined(separator: "\r\n"))
            let request = Array(head.utf8) + Array(String(body.count, radix: 16).utf8) + [13, 10] + body + [13, 10]
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: request)
            defer { connection.close() }
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer before the timeouts")
            #expect(response.status == 501)
            #expect(try ReceiverHarness.decodeError(response.body).contains("'gzip, chunked'"))
            #expect(try await connection.waitForClose(timeout: 30).closed)
            #expect(try harness.directory.uploadedNames() == [])
            let entry = try #require(await harness.logs.waitFor { $0.method == "POST" })
            #expect(entry.status == 501)
        }
    }

    @Test("Transfer-Encoding: chunked in another case is taken and stored")
    func chunkedInCapitals() async throws {
        try await Self.run { harness in
            let content = RandomBytes.make(3_000, seed: 63)
            let body = RawMultipart.body([.file("f", filename: "caps.bin", content)])
            let head = RawMultipart.head(length: nil).replacingOccurrences(of: "Transfer-Encoding: chunked", with: "Transfer-Encoding: CHUNKED")
            let request = Array(head.utf8) + Array(String(body.count, radix: 16).utf8) + [13, 10] + body + Array("\r\n0\r\n\r\n".utf8)
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: request)
            defer { connection.close() }
            #expect(try await connection.readResponse(timeout: 60)?.status == 200)
            #expect(try harness.directory.uploadedBytes("caps.bin") == content)
        }
    }

    @Test("a chunk that declares more than the limit: 413 once the bytes that came pass it, not at a timeout; nothing kept")
    func hugeChunk() async throws {
        try await Self.run { harness in
            let body = RawMultipart.body([.file("f", filename: "chunk.bin", RandomBytes.make(20_000, seed: 64))], closed: false)
            // One chunk of 2⁶⁰ bytes announced; 20 KB of it sent, then nothing.
            let request = Array(RawMultipart.head(length: nil).utf8) + Array("1000000000000000\r\n".utf8) + body
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: request)
            defer { connection.close() }
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer before the timeouts")
            #expect(response.status == 413)
            #expect(try await connection.waitForClose(timeout: 30).closed)
            #expect(try harness.directory.uploadedNames() == [])
            #expect(try harness.directory.stagedNames() == [])
        }
    }

    @Test("without the token, a huge Content-Length is answered 401 and the connection closed at once")
    func unauthorizedHugeContentLength() async throws {
        try await ReceiverHarness.run(configure: {
            $0.access = .token("s3cret")
            $0.timeouts = Self.patient
        }) { harness in
            let head = RawMultipart.head(length: 0).replacingOccurrences(of: "Content-Length: 0", with: "Content-Length: 9223372036854775808")
            let connection = try await RawHTTPConnection.connect(port: harness.server.port, sending: Array(head.utf8))
            defer { connection.close() }
            let response = try #require(try await connection.readResponse(timeout: 60), "no answer before the timeouts")
            #expect(response.status == 401)
            #expect(try await connection.waitForClose(timeout: 30).closed)
        }
    }
}
