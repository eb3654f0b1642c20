import Foundation
import HTTPUploadTransport
import Multipart
import TestSupport
import Synchronization
import Testing
import UploadModel
import UploadEngine

/// A tus job through `UploadManager` on the real transport, against `ferry serve --throttle`:
/// cancelling it removes the upload (`DELETE`); stopping the queue keeps it, and the job's
/// checkpoint leads the next attempt on from the server's offset.
@Suite("tus jobs in the manager", .serialized, .timeLimit(.minutes(2)))
struct TusManagerTests {
    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 13) }
    }

    static func spec(_ path: String, server: SpawnedReceiver) -> UploadJobSpec {
        UploadJobSpec(url: server.baseURL + "/files/", files: [QueuedFile.capture(path: path)],
                      tus: TusJobOptions(chunkSize: 64 * 1024))
    }

    /// Runs `action` the moment the job's upload exists and has at least 128 KiB confirmed, on a
    /// watching thread (a cooperative thread can be held by other tests for longer than the
    /// upload lasts); returns the checkpoint then, nil if that never came.
    static func whenConfirmed(_ manager: UploadManager, _ id: UploadJobID, _ action: @escaping () -> Void) async -> TusCheckpoint? {
        let seen = Mutex<TusCheckpoint?>(nil)
        _ = await ThreadPoll.act(within: .seconds(10), when: {
            guard let tus = manager.job(id)?.tus, tus.uploadURL != nil, tus.offset >= 128 * 1024 else { return false }
            seen.withLock { $0 = tus }
            return true
        }, action)
        return seen.withLock { $0 }
    }

    @Test("cancelling a tus job sends DELETE to its upload, which the server removes")
    func cancelDeletes() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "256K"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let path = try dir.write("cancelled.bin", Self.bytes(1 << 20, seed: 1))
        let transport = HTTPTransport()
        let manager = UploadManager(configuration: .init(), transport: transport)
        let id = try manager.enqueue(Self.spec(path, server: server))
        let checkpoint = try #require(await Self.whenConfirmed(manager, id) { manager.cancel(id) })
        // The server may answer 423 while it still drains the cut PATCH; the DELETE is asked again.
        var deleted: [String: Any]?
        for _ in 0..<1_000 where deleted == nil {
            deleted = server.logLines.first { $0["method"] as? String == "DELETE" && $0["status"] as? Int == 204 }
            if deleted == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(deleted != nil, "\(server.lines)")
        #expect((checkpoint.uploadURL ?? "").hasSuffix(deleted?["path"] as? String ?? "?"))
        #expect(manager.job(id)?.state == .cancelled)
        manager.stop()
        try await transport.shutdown()
    }

    @Test("stopping keeps the upload: the job's next attempt asks HEAD and sends only the rest")
    func stopKeeps() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "256K"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let content = Self.bytes(1 << 20, seed: 2)
        let path = try dir.write("stopped.bin", content)
        let transport = HTTPTransport()
        let manager = UploadManager(configuration: .init(), transport: transport)
        let id = try manager.enqueue(Self.spec(path, server: server))
        let checkpoint = try #require(await Self.whenConfirmed(manager, id) {
            manager.pause()
            manager.stop()
        })
        try await Task.sleep(for: .milliseconds(300))
        #expect(!server.logLines.contains { $0["method"] as? String == "DELETE" })
        #expect(manager.job(id)?.state == .queued)
        #expect(manager.job(id)?.tus?.uploadURL == checkpoint.uploadURL)
        let before = server.logLines.count
        manager.resume()
        let summary = await manager.waitUntilIdle()
        #expect(summary.succeeded == 1)
        let after = server.logLines.dropFirst(before)
        #expect(after.contains { $0["method"] as? String == "HEAD" } && !after.contains { $0["method"] as? String == "POST" })
        #expect(server.savedContents().contains(Data(content)))
        #expect(manager.job(id)?.tus?.notes.contains { if case .resumed = $0 { return true } else { return false } } == true)
        try await transport.shutdown()
    }
}
