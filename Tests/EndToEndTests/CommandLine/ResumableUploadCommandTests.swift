import Foundation
import HTTPTypes
import TestSupport
import Testing

/// `ferry send --resumable` (the built binary, as uid 65534) against SwiftNIO's
/// `NIOResumableUpload` in front of an upload endpoint: a connection the server cuts mid-body
/// goes on from the server's offset (`HEAD`, then `PATCH` of the rest), and the endpoint gets the
/// one request whole; the same endpoint without a cut, and a server that knows nothing of
/// resumable uploads (`ferry serve`), take the upload as before.
@Suite("ferry send --resumable against NIOResumableUpload (the built binary)", .serialized, .timeLimit(.minutes(3)))
struct ResumableUploadCommandTests {
    static let size = 8 << 20

    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 13) }
    }

    /// A server, a folder, and an 8 MiB file in it with its content.
    static func fixture(cutAfter: Int? = nil, stallAfter: Int? = nil, size: Int = size, seed: Int) async throws
        -> (server: ResumableUploadServer, dir: TemporaryDirectory, content: [UInt8], file: String) {
        let server = try await ResumableUploadServer.start(cutAfter: cutAfter, stallAfter: stallAfter)
        let dir = TemporaryDirectory()
        let content = bytes(size, seed: seed)
        return (server, dir, content, try dir.write("upload-\(seed).bin", content))
    }

    /// Checks that the endpoint received exactly one request, complete, holding `content` under
    /// its `Content-Length`.
    static func expectOneWholeRequest(_ server: ResumableUploadServer, holding content: [UInt8]) throws {
        // Scalars only in the expectations: a failure would print a whole body otherwise.
        let received = server.received
        #expect(received.count == 1, "one request reached the endpoint: \(received.map { "\($0.head.method) \($0.head.path ?? "")" })")
        let request = try #require(received.first)
        let (complete, method, path) = (request.complete, request.head.method, request.head.path)
        #expect(complete && method == .post && path == "/upload", "\(method) \(path ?? "") complete: \(complete)")
        let (length, declared) = (request.body.count, Int(request.head.headerFields[.contentLength] ?? ""))
        #expect(length == declared, "the body under its Content-Length")
        let holdsFile = Data(request.body).range(of: Data(content)) != nil
        #expect(holdsFile, "the file's bytes, exactly, in the form")
        let start = String(decoding: request.body.prefix(2), as: UTF8.self)
        #expect(start == "--", "a multipart body from its first byte")
    }

    @Test("the server cuts the connection at 3 of 8 MiB: HEAD and PATCH go on from its offset, the endpoint gets one whole request")
    func cutAndResumed() async throws {
        let (server, dir, content, file) = try await Self.fixture(cutAfter: 3 << 20, seed: 3)
        let send = try FerryProcess(["send", "--json", "--resumable", "--retry", "0", "--url", server.baseURL + "/upload",
                                     "-F", "note=über", file], stateHome: dir.path("state"))
        let status = try await send.exitStatus(within: .seconds(90))
        try await server.shutdown()
        #expect(status == 0, "\(send.errorText)")
        try Self.expectOneWholeRequest(server, holding: content)
        let body = server.received.first?.body.count ?? 0
        #expect(server.totalBytesIn > body, "the cut connection's bytes and the PATCH's both arrived")
        #expect(server.totalBytesIn < body + (1 << 20), "resumed from the server's offset, not sent again: \(server.totalBytesIn) for \(body)")
        let succeeded = try #require(send.jsonEvents.first { $0["event"] as? String == "succeeded" })
        #expect(succeeded["status"] as? Int == 201, "\(succeeded)")
        let resumedAt = try #require(succeeded["resumedAt"] as? [Int], "the event says where the upload went on from")
        #expect(resumedAt.count == 1 && resumedAt[0] > 0 && resumedAt[0] <= 3 << 20, "\(resumedAt)")
    }

    @Test("over HTTP/2 (TLS, ALPN h2): the 104 comes on the request's stream, and a cut connection goes on from the server's offset on a new one")
    func cutAndResumedOverHTTP2() async throws {
        let certificates = try TestCertificates()
        let server = try await ResumableUploadServer.start(cutAfter: 3 << 20, http2Over: try certificates.issue("server"))
        let dir = TemporaryDirectory()
        let content = Self.bytes(Self.size, seed: 6)
        let file = try dir.write("upload-h2.bin", content)
        let send = try FerryProcess(["send", "--json", "--http2", "--cacert", certificates.authority, "--resumable", "--retry", "0",
                                     "--url", server.baseURL + "/upload", file], stateHome: dir.path("state"))
        let status = try await send.exitStatus(within: .seconds(90))
        try await server.shutdown()
        #expect(status == 0, "\(send.errorText)")
        try Self.expectOneWholeRequest(server, holding: content)
        // The server speaks nothing but HTTP/2: the request came as a stream.
        #expect(server.received.first?.head.scheme == "https")
        let body = server.received.first?.body.count ?? 0
        #expect(server.totalBytesIn < body + (2 << 20), "resumed from the server's offset, not sent again: \(server.totalBytesIn) for \(body)")
        let succeeded = try #require(send.jsonEvents.first { $0["event"] as? String == "succeeded" })
        let resumedAt = try #require(succeeded["resumedAt"] as? [Int], "the event says where the upload went on from: \(succeeded)")
        #expect(resumedAt.count == 1 && resumedAt[0] > 0, "\(resumedAt)")
    }

    @Test("kill -9 mid-body, then --resume: the journaled upload goes on from the server's offset, the endpoint gets one whole request")
    func killAndResume() async throws {
        // 16 MiB: more than the server's 2 MiB, its receive buffer and the client's send buffer
        // (4 MiB at most here) can take, so the client is still mid-body when it is killed.
        let size = 16 << 20
        let (server, dir, content, file) = try await Self.fixture(stallAfter: 2 << 20, size: size, seed: 4)
        let state = dir.path("state")
        let first = try FerryProcess(["send", "--json", "--resumable", "--retry", "0", "--url", server.baseURL + "/upload", file],
                                     stateHome: state)
        // The server stops reading at 2 MiB: once the client's writes stand still, it is killed.
        var sent = -1
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(300))
            let now = first.jsonEvents.compactMap { $0["bytes"] as? Int }.last ?? 0
            if now == sent, now >= 2 << 20 { break }
            sent = now
        }
        first.signal(SIGKILL)
        _ = try await first.exitStatus()
        #expect(sent >= 2 << 20 && sent < size, "killed mid-body, at \(sent)")

        let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        let status = try await resumed.exitStatus(within: .seconds(60))
        try await server.shutdown()
        #expect(status == 0, "\(resumed.errorText)")
        try Self.expectOneWholeRequest(server, holding: content)
        let body = server.received.first?.body.count ?? 0
        #expect(server.totalBytesIn < body + (1 << 20), "the rest only after the restart: \(server.totalBytesIn) for \(body)")
        let succeeded = try #require(resumed.jsonEvents.first { $0["event"] as? String == "succeeded" })
        let resumedAt = succeeded["resumedAt"] as? [Int] ?? []
        #expect(resumedAt.count == 1 && resumedAt[0] >= 1 << 20, "\(succeeded)")
    }

    @Test("a profile's resumable = true resumes a cut upload; --no-resumable switches it off, and the cut fails the upload")
    func fromProfile() async throws {
        for switchedOff in [false, true] {
            let server = try await ResumableUploadServer.start(cutAfter: 1 << 20)
            let dir = TemporaryDirectory()
            let config = dir.path("config")
            try FileManager.default.createDirectory(atPath: config + "/ferry", withIntermediateDirectories: true)
            try "[profiles.nio]\nurl = \"\(server.baseURL)/upload\"\nresumable = true\n"
                .write(toFile: config + "/ferry/profiles.toml", atomically: true, encoding: .utf8)
            let content = Self.bytes(3 << 20, seed: 9)
            let file = try dir.write("profile.bin", content)
            let send = try FerryProcess(["send", "--profile", "nio", "--retry", "0", file] + (switchedOff ? ["--no-resumable"] : []),
                                        stateHome: dir.path("state"), environment: ["XDG_CONFIG_HOME": config])
            let status = try await send.exitStatus(within: .seconds(60))
            try await server.shutdown()
            if switchedOff {
                #expect(status == 1, "the cut fails the upload without resumption: \(send.errorText)")
                #expect(server.received.allSatisfy { !$0.complete })
            } else {
                #expect(status == 0, "\(send.errorText)")
                try Self.expectOneWholeRequest(server, holding: content)
            }
        }
    }

    @Test("without a cut, with and without --resumable, the same endpoint gets the one request as sent")
    func uncut() async throws {
        for resumable in [true, false] {
            let server = try await ResumableUploadServer.start()
            let dir = TemporaryDirectory()
            let content = Self.bytes(1 << 20, seed: resumable ? 1 : 2)
            let file = try dir.write("data.bin", content)
            let send = try FerryProcess(["send", "--retry", "0", "--url", server.baseURL + "/upload", file] + (resumable ? ["--resumable"] : []),
                                        stateHome: dir.path("state"))
            let status = try await send.exitStatus(within: .seconds(60))
            try await server.shutdown()
            #expect(status == 0, "resumable \(resumable): \(send.errorText)")
            try Self.expectOneWholeRequest(server, holding: content)
        }
    }

    @Test("a server that knows nothing of resumable uploads (ferry serve) takes a --resumable upload as any other")
    func serverWithoutResumption() async throws {
        let server = try await SpawnedReceiver.start()
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let content = Self.bytes(300_000, seed: 5)
        let file = try dir.write("plain.bin", content)
        let send = try FerryProcess(["send", "--resumable", "--retry", "0", "--url", server.baseURL + "/upload", file],
                                    stateHome: dir.path("state"))
        #expect(try await send.exitStatus(within: .seconds(60)) == 0, "\(send.errorText)")
        #expect(server.savedContents().contains(Data(content)))
    }
}
