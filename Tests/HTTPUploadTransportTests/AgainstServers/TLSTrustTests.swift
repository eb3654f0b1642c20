import Foundation
import Multipart
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadEngine

/// Uploads over TLS to nginx (certificates made with `openssl` by the test) through the real
/// manager and `HTTPTransport`: which authorities are trusted (`--cacert`, `--capath` as plain
/// and hashed directories, `--insecure`), mutual TLS, and every certificate problem in words that
/// name the host, hold no type or library names and no build paths, fail the job at once and are
/// not retried.
@Suite("TLS: trust, client certificates and certificate problems in words", .serialized, .timeLimit(.minutes(3)))
struct TLSTrustTests {
    /// What an upload ended as.
    struct Ended {
        /// The job when the queue went idle.
        let job: UploadJob
        /// How long it took, from enqueue to idle.
        let elapsed: Duration
        /// The pool's census once closing connections have closed (up to 5 s after idle).
        let census: ConnectionPoolCensus
    }

    /// Uploads one small file to `url` with `options` (3 retries, as by default) and waits.
    static func upload(to url: String, options: ConnectionOptions, retries: Int = 3) async throws -> Ended {
        let dir = TemporaryDirectory()
        let path = dir.file("file.txt", bytes: 2_000)
        let transport = HTTPTransport()
        let manager = UploadManager(
            configuration: .init(concurrencyLimit: 1, retryPolicy: RetryPolicy(maximumRetries: retries), idleTimeout: .seconds(20)),
            transport: transport
        )
        let start = ContinuousClock.now
        try manager.enqueue([UploadJobSpec(url: url, files: [QueuedFile.capture(path: path)], connection: options)])
        _ = await manager.waitUntilIdle()
        let elapsed = start.duration(to: .now)
        let job = try #require(manager.snapshot().jobs.first)
        manager.stop()
        let census = try await transport.census(within: .seconds(5)) { $0.closing == 0 }
        try await transport.shutdown()
        return Ended(job: job, elapsed: elapsed, census: census)
    }

    /// Checks that the job failed once, not retried, quickly, with a text containing `parts`.
    static func expectFailure(_ ended: Ended, saying parts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let text = ended.job.lastError?.description ?? "(no error)"
        #expect(ended.job.state == .failed, "\(ended.job.state)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(text.contains(part), "\(part) not in: \(text)", sourceLocation: sourceLocation)
        }
        PlainWords.expectInPlainWords(text, sourceLocation: sourceLocation)
        #expect(ended.job.attempts == 1, "a TLS failure is not retried: \(ended.job.attemptHistory.map(\.error))", sourceLocation: sourceLocation)
        #expect(ended.job.lastError?.isRetryable == false, sourceLocation: sourceLocation)
        // No bound on the time: the attempt count above is what shows no retry (a wall-clock bound
        // was exceeded by whole-suite runs on 2 cores).
    }

    @Test("--cacert FILE trusts the test's authority; nginx read the whole upload and answered 200")
    func trustsAuthorityFile() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        #expect(ended.job.state == .succeeded, "\(ended.job.lastError?.description ?? "")")
        #expect(ended.job.response?.status == 200)
        #expect(server.accessLog.contains { $0.hasPrefix("POST /upload 200") }, "\(server.accessLog)")
    }

    @Test("--capath DIR trusts the certificates in a plain directory and in a hashed (c_rehash) one")
    func trustsAuthorityDirectory() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let plain = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: certificates.authority, toPath: plain.path("company-ca.pem"))
        try "not a certificate\n".write(toFile: plain.path("README"), atomically: true, encoding: .utf8)
        let hashed = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: certificates.authority, toPath: hashed.path("ca.pem"))
        try TestCertificates.openssl(["rehash", hashed.path])
        // Only the hashed name stays, as a file of its own (openssl rehash made it a link).
        let link = try #require(try FileManager.default.contentsOfDirectory(atPath: hashed.path).first { $0.hasSuffix(".0") })
        try FileManager.default.removeItem(atPath: hashed.path(link))
        try FileManager.default.moveItem(atPath: hashed.path("ca.pem"), toPath: hashed.path(link))
        for directory in [plain.path, hashed.path] {
            let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                              options: ConnectionOptions(certificateAuthorityDirectory: directory))
            #expect(ended.job.state == .succeeded, "\(directory): \(ended.job.lastError?.description ?? "")")
        }
    }

    @Test("--cacert FILE and a hashed --capath DIR together: the authorities of both are trusted, others are not")
    func trustsFileAndHashedDirectoryTogether() async throws {
        let fileAuthority = try TestCertificates(name: "File Authority")
        let directoryAuthority = try TestCertificates(name: "Directory Authority")
        let stranger = try TestCertificates(name: "Stranger Authority")
        let hashed = TemporaryDirectory()
        try FileManager.default.copyItem(atPath: directoryAuthority.authority, toPath: hashed.path("directory-ca.pem"))
        try TestCertificates.openssl(["rehash", hashed.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: hashed.path).contains(where: TLSContextFactory.isHashName))
        let options = ConnectionOptions(certificateAuthorityFile: fileAuthority.authority,
                                        certificateAuthorityDirectory: hashed.path)
        for authority in [fileAuthority, directoryAuthority] {
            let server = try NginxServer.readingUploadsOverTLS(try authority.issue("server"))
            let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload", options: options)
            #expect(ended.job.state == .succeeded, "\(ended.job.lastError?.description ?? "")")
        }
        let server = try NginxServer.readingUploadsOverTLS(try stranger.issue("server"))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload", options: options)
        Self.expectFailure(ended, saying: ["signed by an authority that is not trusted", "Stranger Authority"])
    }

    @Test("only names openssl rehash gives certificates make a directory hashed")
    func hashNames() {
        for name in ["5ad8a5d6.0", "002c0b4f.12"] { #expect(TLSContextFactory.isHashName(name), "\(name)") }
        for name in ["5ad8a5d6.r0", "5AD8A5D6.0", "5ad8a5d6.", "5ad8a5d6", "ad8a5d6.0", "ca.pem", "5ad8a5d6.0.pem"] {
            #expect(!TLSContextFactory.isHashName(name), "\(name)")
        }
    }

    @Test("--insecure uploads to a server whose authority is not trusted")
    func insecure() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(verifiesCertificates: false))
        #expect(ended.job.state == .succeeded, "\(ended.job.lastError?.description ?? "")")
    }

    @Test("an authority that is not trusted: named, with --cacert and --insecure as the ways out; once, at once")
    func unknownAuthority() async throws {
        let certificates = try TestCertificates(name: "Internal Test Authority")
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload", options: ConnectionOptions())
        Self.expectFailure(ended, saying: ["the certificate of 127.0.0.1", "signed by an authority that is not trusted",
                                           "Internal Test Authority", "--cacert FILE", "--insecure"])
        #expect(server.accessLog.isEmpty)
    }

    @Test("an expired certificate says when it expired")
    func expired() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server", validity: .expired))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        Self.expectFailure(ended, saying: ["the certificate of 127.0.0.1 expired on 2020-01-02 00:00 UTC", "--insecure"])
    }

    @Test("a certificate not yet valid says from when, and to check the clock")
    func notYetValid() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server", validity: .notYetValid))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        Self.expectFailure(ended, saying: ["the certificate of 127.0.0.1 is not valid before 2090-01-01 00:00 UTC", "clock"])
    }

    @Test("a self-signed certificate says so")
    func selfSigned() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.selfSigned("lonely"))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload", options: ConnectionOptions())
        Self.expectFailure(ended, saying: ["the certificate of 127.0.0.1 is self-signed", "--cacert FILE", "--insecure"])
    }

    @Test("a certificate for another name lists the names it holds")
    func otherName() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("other", for: ["DNS:other.example", "DNS:*.other.example", "IP:10.9.8.7"]))
        let ended = try await Self.upload(to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        Self.expectFailure(ended, saying: ["the certificate of 127.0.0.1 is for other names (other.example, *.other.example, 10.9.8.7)"])
    }

    @Test("mutual TLS with nginx's ssl_verify_client: --cert and --key, or --cert holding both, are accepted; none, or one of another authority, in words")
    func clientCertificate() async throws {
        let certificates = try TestCertificates()
        let clients = try TestCertificates(name: "Ferry Client CA")
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"), clientAuthority: clients.authority)
        let client = try clients.issue("client", for: ["DNS:client.example"], usage: "clientAuth")
        let both = clients.directory.path("client-and-key.pem")
        try (String(contentsOfFile: client.certificate, encoding: .utf8) + String(contentsOfFile: client.key, encoding: .utf8))
            .write(toFile: both, atomically: true, encoding: .utf8)
        let url = "https://127.0.0.1:\(server.port)/upload"
        let separate = try await Self.upload(to: url, options: ConnectionOptions(
            certificateAuthorityFile: certificates.authority, clientCertificateFile: client.certificate, clientKeyFile: client.key))
        #expect(separate.job.state == .succeeded, "\(separate.job.lastError?.description ?? "")")
        let combined = try await Self.upload(to: url, options: ConnectionOptions(
            certificateAuthorityFile: certificates.authority, clientCertificateFile: both))
        #expect(combined.job.state == .succeeded, "\(combined.job.lastError?.description ?? "")")
        #expect(server.accessLog.filter { $0.hasPrefix("POST /upload 200") }.count == 2, "\(server.accessLog)")

        let without = try await Self.upload(to: url, options: ConnectionOptions(certificateAuthorityFile: certificates.authority))
        Self.expectFailure(without, saying: ["127.0.0.1 wants a client certificate: give one with --cert FILE (and --key FILE)"])
        let stranger = try certificates.issue("stranger", for: ["DNS:client.example"], usage: "clientAuth")
        let refused = try await Self.upload(to: url, options: ConnectionOptions(
            certificateAuthorityFile: certificates.authority, clientCertificateFile: stranger.certificate, clientKeyFile: stranger.key))
        Self.expectFailure(refused, saying: ["127.0.0.1 did not accept the client certificate"])
    }

    @Test("files given for trust or a client certificate that cannot be used: the option, the path and what is wrong")
    func unusableFiles() async throws {
        let certificates = try TestCertificates()
        let server = try NginxServer.readingUploadsOverTLS(try certificates.issue("server"))
        let dir = TemporaryDirectory()
        let text = dir.file("notes.txt", bytes: 100)
        let client = try certificates.issue("client", usage: "clientAuth")
        let other = try certificates.issue("other-client", usage: "clientAuth")
        let url = "https://127.0.0.1:\(server.port)/upload"
        let cases: [(ConnectionOptions, String)] = [
            (ConnectionOptions(certificateAuthorityFile: dir.path("missing.pem")), "--cacert \(dir.path("missing.pem")): no such file"),
            (ConnectionOptions(certificateAuthorityFile: text), "--cacert \(text): holds no PEM certificate"),
            (ConnectionOptions(certificateAuthorityFile: dir.path), "--cacert \(dir.path): is a directory, not a file"),
            (ConnectionOptions(certificateAuthorityDirectory: dir.path("none")), "--capath \(dir.path("none")): no such directory"),
            (ConnectionOptions(certificateAuthorityDirectory: dir.path), "--capath \(dir.path): holds no PEM certificate"),
            (ConnectionOptions(clientCertificateFile: client.certificate), "--cert \(client.certificate): holds no PEM private key; give the key with --key FILE"),
            (ConnectionOptions(clientCertificateFile: client.certificate, clientKeyFile: dir.path("k.pem")), "--key \(dir.path("k.pem")): no such file"),
            (ConnectionOptions(clientCertificateFile: client.certificate, clientKeyFile: other.key),
             "--key \(other.key): the private key does not match the certificate in \(client.certificate)"),
        ]
        for (options, expected) in cases {
            let ended = try await Self.upload(to: url, options: options)
            Self.expectFailure(ended, saying: [expected])
        }
        #expect(server.accessLog.isEmpty)
    }
}
