import FileSystem
import Foundation
import Multipart
import Synchronization
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadProtocols

/// The tus executor (`TusTransfer`, through `HTTPTransport`) against tus servers no one here
/// wrote — tuspyserver (no checksum) — and against `ferry serve` (checksum, termination).
@Suite("tus uploads through HTTPTransport", .serialized, .timeLimit(.minutes(3)))
struct TusTransferTests {
    /// What one attempt reported.
    struct Outcome {
        var result: Result<UploadResponse, UploadError>
        /// Every confirmed offset the checkpoints carried, in order, each once.
        var progress: [Int64]
        var bytesWritten: Int64
    }

    /// Runs one attempt to its end; `cancelWhen` is asked at each new confirmed offset.
    static func run(_ plan: TusUploadPlan, headers: [HeaderField] = [], transport: HTTPTransport, discarding: Bool = true,
                    cancelWhen: @escaping @Sendable (Int64) -> Bool = { _ in false }) async throws -> Outcome {
        let message = RequestMessage(method: "POST", target: plan.creationURL,
                                     headers: [HeaderField(name: "Host", value: plan.creationURL.hostHeader)] + headers,
                                     body: RequestBody(segments: [], contentType: TusRequest.bodyContentType))
        var request = UploadRequest(message: message, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(5),
                                    idleTimeout: .seconds(20), tus: plan)
        let state = Mutex<(result: Result<UploadResponse, UploadError>?, progress: [Int64], task: (any TransportTask)?)>((nil, [], nil))
        request.tusCheckpointed = { checkpoint in
            let bytes = checkpoint.offset
            let task = state.withLock { state -> (any TransportTask)? in
                guard bytes != (state.progress.last ?? 0) else { return nil }
                state.progress.append(bytes)
                return state.task
            }
            if let task, cancelWhen(bytes) { discarding ? task.cancelDiscardingUpload() : task.cancel() }
        }
        let done = AsyncStream<Void>.makeStream()
        let task = transport.start(request, bodyCompleting: {
            Issue.record("a tus upload never asks the last-byte gate")
            return true
        }, completion: { result in
            state.withLock { $0.result = result }
            done.continuation.finish()
        })
        state.withLock { $0.task = task }
        for await _ in done.stream {}
        let (result, progress) = state.withLock { ($0.result, $0.progress) }
        return Outcome(result: try #require(result), progress: progress, bytesWritten: task.bytesWritten)
    }

    static func plan(_ path: String, creationURL: String, chunk: Int64, uploadURL: String? = nil,
                     parameters: [FormTextField] = []) throws -> TusUploadPlan {
        let snapshot = try FileInspector.inspect(path)
        let metadata = try TusMetadata.header(path: path, fileType: "application/octet-stream", parameters: parameters)
        return TusUploadPlan(creationURL: try UploadTarget(creationURL), file: snapshot, metadata: metadata, chunkSize: chunk,
                             uploadURL: try uploadURL.map { try UploadTarget($0) })
    }

    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 13) }
    }

    /// Runs curl (the server's client for setting up a half-done upload) and returns its output.
    static func curl(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--max-time", "10"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("tuspyserver: a multi-chunk upload arrives byte-exact with its metadata; progress is the confirmed offsets")
    func multiChunk() async throws {
        let server = try await TuspyServer.start()
        let dir = TemporaryDirectory()
        let content = Self.bytes(300_000, seed: 1)
        let path = try dir.write("naïve data.bin", content)
        let transport = HTTPTransport()
        let outcome = try await Self.run(try Self.plan(path, creationURL: server.creationURL, chunk: 64 * 1024,
                                                       parameters: [FormTextField(name: "note", value: "héllo, world")]),
                                         transport: transport)
        try await transport.shutdown()
        #expect(try outcome.result.get().status == 204)
        // No data in the creation POST (by default, as tus-js-client and tuspy), then five PATCHes.
        #expect(outcome.progress == [65_536, 131_072, 196_608, 262_144, 300_000])
        #expect(outcome.bytesWritten == 300_000)
        let requests = server.server.lines.filter { $0.hasPrefix("REQ ") }
        #expect(requests.first == "REQ OPTIONS /files/ 0")
        #expect(requests.dropFirst().first == "REQ POST /files/ 0")
        #expect(requests.filter { $0.hasPrefix("REQ PATCH") }.count == 5)
        let completed = try #require(server.server.lines.first { $0.hasPrefix("COMPLETE ") })
        let upload = try server.upload(at: String(completed.dropFirst("COMPLETE ".count)))
        #expect([UInt8](upload.bytes) == content)
        #expect(upload.metadata == ["filename": "naïve data.bin", "filetype": "application/octet-stream", "note": "héllo, world"])
    }

    @Test("tuspyserver: an upload begun elsewhere is asked HEAD and only the rest is sent; a vanished one starts again")
    func resumeAndRestart() async throws {
        let server = try await TuspyServer.start()
        let dir = TemporaryDirectory()
        let content = Self.bytes(200_000, seed: 2)
        let path = try dir.write("resumed.bin", content)
        let head = try dir.write("head.bin", Array(content[0..<70_000]))
        // Begun by curl: created, its first 70,000 bytes sent.
        let created = try await Self.curl(["-i", "-X", "POST", server.creationURL, "-H", "Tus-Resumable: 1.0.0",
                                           "-H", "Upload-Length: 200000",
                                           "-H", "Upload-Metadata: filename cmVzdW1lZC5iaW4=,filetype YXBwbGljYXRpb24vb2N0ZXQtc3RyZWFt"])
        let location = try #require(created.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location:") })
        let uploadURL = location.dropFirst("location:".count).trimmingCharacters(in: .whitespaces)
        _ = try await Self.curl(["-X", "PATCH", uploadURL, "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: 0",
                                 "-H", "Content-Type: application/offset+octet-stream", "--data-binary", "@" + head])
        let before = server.server.lines.count

        let transport = HTTPTransport()
        let outcome = try await Self.run(try Self.plan(path, creationURL: server.creationURL, chunk: 64 * 1024, uploadURL: uploadURL),
                                         transport: transport)
        #expect(try outcome.result.get().status == 204)
        #expect(outcome.progress == [70_000, 135_536, 200_000])
        let requests = server.server.lines.dropFirst(before).filter { $0.hasPrefix("REQ ") }
        #expect(Array(requests) == ["REQ OPTIONS /files/ 0", "REQ HEAD \(URL(string: uploadURL)!.path) 0",
                                    "REQ PATCH \(URL(string: uploadURL)!.path) 65536", "REQ PATCH \(URL(string: uploadURL)!.path) 64464"])
        #expect([UInt8](try server.upload(at: uploadURL).bytes) == content)

        // An upload URL the server does not know (404): a new upload, whole.
        let restarted = try await Self.run(try Self.plan(path, creationURL: server.creationURL, chunk: 1 << 20,
                                                         uploadURL: server.creationURL + "0123456789abcdef0123456789abcdef"),
                                           transport: transport)
        try await transport.shutdown()
        // A new upload, created without data and sent whole by one PATCH: tuspyserver calls its
        // completion hook for it (it calls none for an upload finished inside its creation POST),
        // so the application behind the server learns of it.
        #expect(try restarted.result.get().status == 204)
        #expect(restarted.progress == [200_000])
        let completed = server.server.lines.filter { $0.hasPrefix("COMPLETE ") }
        #expect(completed.count == 2, "the completion hook ran for both uploads: \(completed)")
        let newPath = String(try #require(completed.last).dropFirst("COMPLETE ".count))
        #expect(!uploadURL.hasSuffix(PathName.lastComponent(of: newPath)))
        #expect([UInt8](try server.upload(at: newPath).bytes) == content)
        let tail = server.server.lines.filter { $0.hasPrefix("REQ ") }.suffix(4)
        #expect(Array(tail).map { $0.replacing(/[0-9a-f]{32}/, with: "ID") }
            == ["REQ OPTIONS /files/ 0", "REQ HEAD /files/ID 0", "REQ POST /files/ 0", "REQ PATCH /files/ID 200000"])
    }

    @Test("ferry serve: chunks carry a SHA-256 Upload-Checksum (the server offers checksum) and arrive byte-exact")
    func ferryServeChecksum() async throws {
        let server = try await SpawnedReceiver.start()
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let content = Self.bytes(500_000, seed: 3)
        let path = try dir.write("checked.bin", content)
        let transport = HTTPTransport()
        let outcome = try await Self.run(try Self.plan(path, creationURL: server.baseURL + "/files/", chunk: 128 * 1024), transport: transport)
        try await transport.shutdown()
        #expect(try outcome.result.get().isSuccess)
        #expect(outcome.progress.last == 500_000)
        #expect(server.savedContents().contains(Data(content)))
        let patches = server.logLines.filter { $0["method"] as? String == "PATCH" }
        #expect(patches.count >= 3 && patches.allSatisfy { ($0["status"] as? Int) == 204 }, "\(server.lines)")
    }

    @Test("ferry serve --throttle: a cancel mid-upload sends DELETE to the upload, which the server removes")
    func cancelDeletes() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "256K"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let path = try dir.write("cancelled.bin", Self.bytes(2 << 20, seed: 4))
        let transport = HTTPTransport()
        let outcome = try await Self.run(try Self.plan(path, creationURL: server.baseURL + "/files/", chunk: 64 * 1024),
                                         transport: transport, cancelWhen: { $0 >= 128 * 1024 })
        try await transport.shutdown()
        guard case .failure(.transferFailed(.other("cancelled"))) = outcome.result else {
            Issue.record("not cancelled: \(outcome.result)")
            return
        }
        // The transfer reports after its DELETE's answer (a 423 — the cut PATCH still held — is
        // asked again); the server logs it as the answer goes.
        var deleted: [String: Any]?
        for _ in 0..<250 where deleted == nil {
            deleted = server.logLines.first { $0["method"] as? String == "DELETE" && $0["status"] as? Int == 204 }
            if deleted == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(deleted != nil, "\(server.lines)")
        #expect(server.savedContents().isEmpty)
    }

    @Test("ferry serve --throttle: a stop (plain cancel) keeps the upload, and the next attempt goes on from its offset")
    func stopKeeps() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "256K"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let content = Self.bytes(1 << 20, seed: 5)
        let path = try dir.write("stopped.bin", content)
        let transport = HTTPTransport()
        var plan = try Self.plan(path, creationURL: server.baseURL + "/files/", chunk: 64 * 1024)
        let stopped = try await Self.run(plan, transport: transport, discarding: false, cancelWhen: { $0 >= 128 * 1024 })
        guard case .failure(.transferFailed(.other("cancelled"))) = stopped.result else {
            Issue.record("not stopped: \(stopped.result)")
            return
        }
        // The server logs a request as its answer goes: the confirmed PATCH's line may come a moment later.
        var patch: [String: Any]?
        for _ in 0..<250 where patch == nil {
            patch = server.logLines.first { $0["method"] as? String == "PATCH" }
            if patch == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(!server.logLines.contains { $0["method"] as? String == "DELETE" })
        let location = try #require(patch?["path"] as? String, "\(server.lines)")
        plan.uploadURL = try UploadTarget(server.baseURL + location)
        let before = server.logLines.count
        let resumed = try await Self.run(plan, transport: transport)
        try await transport.shutdown()
        #expect(try resumed.result.get().isSuccess)
        #expect(!server.logLines.dropFirst(before).contains { $0["method"] as? String == "POST" })
        #expect(server.savedContents().contains(Data(content)))
    }
}
