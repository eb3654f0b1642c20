import Foundation
import HTTPUploadTransport
import Multipart
import TestSupport
import Testing
import UploadModel
import UploadEngine

/// Ferry against PHP's built-in server, which closes every connection after answering: every
/// upload succeeds, and PHP receives each file exactly once (counted by PHP itself), with the
/// default retries on.
@Suite("Interoperability: PHP's built-in server (php -S)", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: PHPBuiltinServer.executable != nil, "php is not installed (scripts/test.sh installs php-cli)"))
struct PHPBuiltinServerTests {
    @Test("600 small files at concurrency 8: all succeed on the first attempt, each arrives once")
    func eachFileOnce() async throws {
        let server = try PHPBuiltinServer()
        defer { server.stop() }
        let dir = TemporaryDirectory()
        let names = (0..<600).map { "php-\($0).txt" }
        let paths = names.enumerated().map { dir.file($0.element, bytes: 100 + $0.offset % 200) }
        let transport = HTTPTransport()
        let manager = UploadManager(configuration: .init(concurrencyLimit: 8), transport: transport)
        try manager.enqueue(paths.map { UploadJobSpec(url: server.url, files: [QueuedFile.capture(path: $0)]) })
        let summary = await manager.waitUntilIdle()
        let jobs = manager.snapshot().jobs
        manager.stop()
        try await transport.shutdown()

        #expect(summary.succeeded == 600)
        #expect(summary.failed == 0)
        let retried = jobs.filter { $0.attempts != 1 }
        #expect(retried.isEmpty, "jobs needing a retry: \(retried.prefix(3).map { String(describing: $0.attemptHistory) })")
        let arrivals = server.arrivals
        #expect(arrivals.count == 600)
        let duplicates = arrivals.filter { $0.value != 1 }
        #expect(duplicates.isEmpty, "arrived more than once: \(duplicates.prefix(5))")
        #expect(Set(arrivals.keys) == Set(names))
    }
}
