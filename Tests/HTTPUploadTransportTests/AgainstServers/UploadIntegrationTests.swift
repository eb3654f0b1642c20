import Foundation
import Multipart
import Receiver
import TestSupport
import Testing
import UploadModel

/// The manager and the real HTTP transport against the real receiver on 127.0.0.1.
@Suite("Integration: uploads to the real receiver", .serialized, .timeLimit(.minutes(2)))
struct UploadIntegrationTests {
    private func spec(_ url: String, _ paths: [String], fields: [FormTextField] = []) -> UploadJobSpec {
        UploadJobSpec(url: url, textFields: fields, files: paths.map(QueuedFile.capture(path:)))
    }

    @Test("many files land intact with their parameters, within the concurrency limit")
    func manyFiles() async throws {
        let dir = TemporaryDirectory()
        let paths = (0..<24).map { dir.file("file-\($0).bin", bytes: 10_000 + $0 * 3_000, fill: UInt8($0)) }
        try await LiveUpload.run(faults: FaultPlan(delayMilliseconds: 30), concurrency: 3) { url, manager, server, book in
            try manager.enqueue(paths.map { spec(url, [$0], fields: [FormTextField(name: "album", value: "Trip é")]) })
            let summary = await manager.waitUntilIdle()
            #expect(summary.succeeded == 24)
            #expect(summary.failed == 0)
            let received = server.receivedUploads
            #expect(received.count == 24)
            for record in received {
                #expect(record.fields["album"] == ["Trip é"])
                let file = try #require(record.files.first)
                let original = dir.path(file.filename)
                #expect(file.sha256 == (try LiveUpload.sha256(of: original)))
                #expect(file.size == Int64((try FileManager.default.attributesOfItem(atPath: original)[.size] as? Int) ?? -1))
            }
            #expect(book.maximumOverlap <= 3)
            #expect(book.maximumOverlap >= 2)
        }
    }

    @Test("a 500 is retried and the retry succeeds")
    func retriedAfter500() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("once.txt", bytes: 5_000)
        try await LiveUpload.run(faults: FaultPlan(failFirst: 1), retries: 2) { url, manager, server, book in
            let id = try manager.enqueue([spec(url, [path])])[0]
            let summary = await manager.waitUntilIdle()
            #expect(summary.succeeded == 1)
            let job = try #require(manager.job(id))
            #expect(job.attempts == 2)
            #expect(job.response?.status == 200)
            #expect(book.logs.map(\.status) == [500, 200])
            #expect(server.receivedUploads.flatMap(\.files).map(\.filename) == ["once.txt"])
        }
    }

    @Test("4xx is not retried and the failure carries the status")
    func clientErrorNotRetried() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("denied.txt")
        try await LiveUpload.run(faults: FaultPlan(status: 403), retries: 3) { url, manager, _, book in
            let id = try manager.enqueue([spec(url, [path])])[0]
            let summary = await manager.waitUntilIdle()
            #expect(summary.failed == 1)
            let job = try #require(manager.job(id))
            #expect(job.attempts == 1)
            #expect(job.lastError == .serverRejected(status: 403, retryAfter: nil, message: "Injected status 403 (--status 403)."),
                    "the server's own words come with the status")
            #expect(book.logs.count == 1)
        }
    }

    @Test("507 is not retried and its failure says the server's reason in words")
    func insufficientStorageNotRetried() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("full.txt")
        try await LiveUpload.run(faults: FaultPlan(status: 507), retries: 3) { url, manager, _, book in
            let id = try manager.enqueue([spec(url, [path])])[0]
            let summary = await manager.waitUntilIdle()
            #expect(summary.failed == 1)
            let job = try #require(manager.job(id))
            #expect(job.attempts == 1, "not retried")
            #expect(job.lastError == .serverRejected(status: 507, retryAfter: nil, message: "Injected status 507 (--status 507)."))
            #expect(job.lastError?.description.contains("no room for the upload (507 Insufficient Storage)") == true)
            #expect(job.lastError?.description.contains("Injected status 507") == true)
            #expect(book.logs.count == 1)
        }
    }

    @Test("a connection dropped mid-body is a retried connection failure")
    func droppedConnection() async throws {
        let dir = TemporaryDirectory()
        // Larger than what the socket buffers can hold, so the drop comes before the last byte
        // was handed over (after it, the job would be "may have arrived", not retried).
        let path = dir.file("big.bin", bytes: 32_000_000)
        try await LiveUpload.run(faults: FaultPlan(dropRate: 1, seed: 1), retries: 1) { url, manager, server, _ in
            let id = try manager.enqueue([spec(url, [path])])[0]
            let summary = await manager.waitUntilIdle()
            #expect(summary.failed == 1)
            let job = try #require(manager.job(id))
            #expect(job.attempts == 2)
            guard case .transferFailed = job.lastError else {
                Issue.record("expected a transfer failure, got \(String(describing: job.lastError))")
                return
            }
            #expect(server.receivedUploads.isEmpty)
        }
    }

    @Test("a server that stalls trips the idle timeout")
    func stalledServer() async throws {
        let dir = TemporaryDirectory()
        // More than the socket buffers can take (send 4 MiB, receive up to 32 MiB here) while the
        // server reads nothing: with less, every byte can be handed over, and the job is rightly
        // "may have arrived" instead of timed out (seen once against a loaded runner).
        let path = dir.file("stalled.bin", bytes: 64_000_000)
        try await LiveUpload.run(faults: FaultPlan(stall: true), idleTimeout: .seconds(1)) { url, manager, _, _ in
            let started = ContinuousClock.now
            let id = try manager.enqueue([spec(url, [path])])[0]
            _ = await manager.waitUntilIdle()
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(manager.job(id)?.lastError == .transferFailed(reason: .idleTimedOut))
        }
    }

    @Test("cancel aborts an upload in flight at once")
    func cancelMidUpload() async throws {
        let dir = TemporaryDirectory()
        // As above: more than the socket buffers hold, so the cancel comes before the last byte.
        let path = dir.file("slow.bin", bytes: 64_000_000)
        try await LiveUpload.run(faults: FaultPlan(stall: true)) { url, manager, _, _ in
            let id = try manager.enqueue([spec(url, [path])])[0]
            for _ in 0..<200 where manager.job(id)?.state != .uploading {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(manager.job(id)?.state == .uploading)
            let cancelled = ContinuousClock.now
            manager.cancel(id)
            _ = await manager.waitUntilIdle()
            #expect(ContinuousClock.now - cancelled < .seconds(2))
            #expect(manager.job(id)?.state == .cancelled)
        }
    }

    @Test("stopping after a body went out and before the answer: the job fails as 'may have arrived', not queued to be sent again")
    func stopAfterSending() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("answered-late.txt", bytes: 300)
        try await LiveUpload.run(faults: FaultPlan(delayMilliseconds: 5_000)) { url, manager, server, _ in
            let id = try manager.enqueue([spec(url, [path])])[0]
            // The receiver has stored the file and waits 5 s before answering; the transport
            // holds back the progress report of so small a body, so the stop must ask it.
            for _ in 0..<500 where server.receivedUploads.isEmpty {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.receivedUploads.count == 1)
            manager.stop()
            let job = try #require(manager.job(id))
            #expect(job.state == .failed)
            #expect(job.lastError == .transferFailed(reason: .stoppedAfterSending))
            #expect(job.lastError?.isRetryable == false)
            #expect(job.attemptHistory.last?.outcome == .interrupted)
        }
    }

    @Test("cancelling after the body went out and before the answer: the job may have arrived, R leaves it, the server has it once")
    func cancelAfterSending() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("cancelled-late.txt", bytes: 300)
        try await LiveUpload.run(faults: FaultPlan(delayMilliseconds: 2_000)) { url, manager, server, _ in
            let id = try manager.enqueue([spec(url, [path])])[0]
            for _ in 0..<500 where server.receivedUploads.isEmpty {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.receivedUploads.count == 1)
            manager.cancel(id)
            _ = await manager.waitUntilIdle()
            let job = try #require(manager.job(id))
            #expect(job.state == .failed)
            #expect(job.lastError == .transferFailed(reason: .cancelledAfterSending))
            #expect(job.mayHaveArrived)
            manager.retryFailedAndCancelled()
            try await Task.sleep(for: .milliseconds(2_500))
            #expect(server.receivedUploads.count == 1)
            #expect(manager.job(id)?.state == .failed)
        }
    }

    @Test("bundle mode sends every file in one request under one field name")
    func bundle() async throws {
        let dir = TemporaryDirectory()
        let paths = ["a.txt", "b.txt", "c.txt"].map { dir.file($0, bytes: 1_000) }
        try await LiveUpload.run { url, manager, server, _ in
            try manager.enqueue([spec(url, paths)])
            #expect(await manager.waitUntilIdle().succeeded == 1)
            let record = try #require(server.receivedUploads.first)
            #expect(server.receivedUploads.count == 1)
            #expect(record.files.map(\.field) == ["file", "file", "file"])
            #expect(record.files.map(\.filename) == ["a.txt", "b.txt", "c.txt"])
        }
    }

    @Test("a missing file, a directory, a FIFO and a vanished file fail alone; the good ones land")
    func badFilesAmongGood() async throws {
        let dir = TemporaryDirectory()
        let good = ["one.txt", "two.txt"].map { dir.file($0) }
        let fifo = dir.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let vanishing = dir.file("vanishing.txt")
        let missing = dir.path("missing.txt")
        let specs = [good[0], missing, dir.path, fifo, vanishing, good[1]]
        try await LiveUpload.run(faults: FaultPlan(delayMilliseconds: 50), concurrency: 1) { url, manager, server, _ in
            let ids = try manager.enqueue(specs.map { spec(url, [$0]) })
            try FileManager.default.removeItem(atPath: vanishing)
            let summary = await manager.waitUntilIdle()
            #expect(summary.succeeded == 2)
            #expect(summary.failed == 4)
            let errors = ids.map { manager.job($0)?.lastError }
            #expect(errors[1] == .multipartFailed(.fileRejected(path: missing, reason: .doesNotExist)))
            #expect(errors[2] == .multipartFailed(.fileRejected(path: dir.path, reason: .isDirectory)))
            #expect(errors[3] == .multipartFailed(.fileRejected(path: fifo, reason: .notRegularFile(kind: "FIFO"))))
            #expect(errors[4]?.path == vanishing)
            #expect(Set(server.receivedUploads.flatMap(\.files).map(\.filename)) == ["one.txt", "two.txt"])
        }
    }
}
