import Foundation
import Multipart
import Synchronization
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadEngine

/// TLS contexts are kept only when they could be made, and made again when a file they were
/// read from changed: trust fixed on disk works in the same process.
@Suite("TLS contexts: only successes kept, files read again when they change", .serialized, .timeLimit(.minutes(3)))
struct TLSContextCacheTests {
    /// How often a cache made (or tried to make) a context.
    final class Count: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var total: Int { value.withLock { $0 } }
    }

    /// A cache over the real factory that counts how often it made (or tried to make) a context.
    static func countingCache() -> (TLSContextCache, Count) {
        let made = Count()
        let cache = TLSContextCache { identity throws(UploadError) in
            made.add()
            return try TLSContextFactory.context(for: identity)
        }
        return (cache, made)
    }

    @Test("a missing --cacert fails every time until it exists; then it is read once and kept; replaced, it is read again")
    func missingThenCreatedThenReplaced() throws {
        let certificates = try TestCertificates()
        let other = try TestCertificates(name: "Other CA")
        let dir = TemporaryDirectory()
        let path = dir.path("ca.pem")
        let identity = TLSIdentity(ConnectionOptions(certificateAuthorityFile: path))
        let (cache, made) = Self.countingCache()
        for _ in 0..<2 {
            #expect(throws: UploadError.transferFailed(reason: .tlsFileUnusable(option: "--cacert", path: path, problem: "no such file"))) {
                try cache.context(for: identity)
            }
        }
        #expect(made.total == 2, "a failure is not kept")
        try FileManager.default.copyItem(atPath: certificates.authority, toPath: path)
        _ = try cache.context(for: identity)
        _ = try cache.context(for: identity)
        #expect(made.total == 3, "a success is kept while the file is unchanged")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: other.authority, toPath: path)
        _ = try cache.context(for: identity)
        #expect(made.total == 4, "a replaced file is read again")
        try TestFile.write(Array("not a certificate".utf8), to: path)
        #expect(throws: UploadError.self) { try cache.context(for: identity) }
        #expect(made.total == 5)
    }

    @Test("--insecure reads no file; options outside TLS share one context")
    func identityIsTheTLSPart() throws {
        let (cache, made) = Self.countingCache()
        let insecure = ConnectionOptions(verifiesCertificates: false, certificateAuthorityFile: "/nonexistent/ca.pem")
        #expect(TLSIdentity(insecure).files.isEmpty)
        _ = try cache.context(for: TLSIdentity(insecure))
        var redirecting = insecure
        redirecting.followsRedirects = true
        redirecting.httpsProxy = "http://127.0.0.1:9"
        _ = try cache.context(for: TLSIdentity(redirecting))
        #expect(made.total == 1)
    }

    @Test("a job failed for a missing --cacert succeeds when retried after the file was created, in the same process")
    func retryAfterFixingTrust() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let dir = TemporaryDirectory()
        let authority = dir.path("trust.pem")
        let file = dir.file("file.txt", bytes: 2_000)
        let transport = HTTPTransport()
        let manager = UploadManager(
            configuration: .init(concurrencyLimit: 1, retryPolicy: RetryPolicy(maximumRetries: 0), idleTimeout: .seconds(20)),
            transport: transport
        )
        let id = try manager.enqueue(UploadJobSpec(url: "https://127.0.0.1:\(server.port)/upload", files: [QueuedFile.capture(path: file)],
                                                   connection: ConnectionOptions(certificateAuthorityFile: authority)))
        _ = await manager.waitUntilIdle()
        let failed = try #require(manager.job(id))
        #expect(failed.state == .failed)
        #expect(failed.lastError?.description.contains("no such file") == true, "\(failed.lastError?.description ?? "")")
        try FileManager.default.copyItem(atPath: certificates.authority, toPath: authority)
        manager.retry(id)
        _ = await manager.waitUntilIdle()
        let retried = try #require(manager.job(id))
        #expect(retried.state == .succeeded, "\(retried.lastError?.description ?? "")")
        #expect(server.accessLog.contains { $0.hasPrefix("POST /upload 200") }, "\(server.accessLog)")
        manager.stop()
        try await transport.shutdown()
    }
}
