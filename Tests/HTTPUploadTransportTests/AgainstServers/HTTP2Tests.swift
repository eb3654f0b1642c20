import Foundation
import HTTPUploadTransport
import Multipart
import Synchronization
import TestSupport
import Testing
import UploadModel
import UploadEngine

/// HTTP/2 over TLS to nginx (`listen ... ssl http2`) through the real manager and `HTTPTransport`,
/// offered with `--http2`: ALPN picks it, many small files share one connection, without
/// `--http2` HTTP/1.1 is kept, a large
/// body arrives whole under flow control, GOAWAY (nginx's `keepalive_requests`) loses and
/// repeats nothing, a `CONNECT` tunnel carries it too, and the pool is empty after each batch.
/// Each file has a size of its own, so the access log's `Content-Length`s tell that each arrived
/// once.
@Suite("HTTP/2: ALPN, many requests on one connection, flow control, GOAWAY", .serialized, .timeLimit(.minutes(3)))
struct HTTP2Tests {
    /// What a batch ended as.
    struct Batch {
        /// The jobs when the queue went idle.
        let jobs: [UploadJob]
        /// The request bodies' lengths (`Content-Length`), by job.
        let bodyLengths: [Int64]
        /// The pool's census once closing connections have closed.
        let census: ConnectionPoolCensus
        /// The bytes sent the manager's `progressed` events carried, in order.
        let progress: [Int64]
    }

    /// One access log line: `METHOD URI STATUS CONTENT-LENGTH PROTOCOL CONNECTION REQUESTS`.
    struct LogLine {
        let status: String
        let contentLength: Int64
        let serverProtocol: String
        let connection: String

        init?(_ line: String) {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 7, words[0] == "POST", let length = Int64(words[3]) else { return nil }
            status = words[2]
            contentLength = length
            serverProtocol = words[4]
            connection = words[5]
        }
    }

    /// nginx with TLS and HTTP/2 on a certificate of `certificates`; `/upload` is read whole
    /// (proxied to a second server block on a Unix socket, which answers 200).
    static func nginx(_ certificates: TestCertificates, serverLines: String = "", httpLines: String = "") throws -> NginxServer {
        try NginxServer.readingUploadsOverTLS(
            try certificates.issue("server"), listenParameters: "ssl http2", serverLines: serverLines, httpLines: httpLines,
            logFormat: "$request_method $request_uri $status $content_length $server_protocol $connection $connection_requests")
    }

    /// Uploads `sizes.count` files (one job each, file `i` of `sizes[i]` bytes) to `url` at
    /// `concurrency`, with the transport's `pooledIdleTimeout`, and waits.
    static func upload(sizes: [Int], to url: String, options: ConnectionOptions, concurrency: Int = 8,
                       pooledIdleTimeout: Duration = HTTPTransport.Configuration().pooledIdleTimeout) async throws -> Batch {
        let dir = TemporaryDirectory()
        let specs = sizes.enumerated().map { index, size in
            let name = String(format: "f%05d.bin", index)
            return UploadJobSpec(url: url, files: [QueuedFile.capture(path: dir.file(name, bytes: size))], connection: options)
        }
        var configuration = HTTPTransport.Configuration()
        configuration.pooledIdleTimeout = pooledIdleTimeout
        let transport = HTTPTransport(configuration: configuration)
        let manager = UploadManager(
            configuration: .init(concurrencyLimit: concurrency, retryPolicy: RetryPolicy(maximumRetries: 3), idleTimeout: .seconds(20)),
            transport: transport
        )
        let progress = Mutex<[Int64]>([])
        let events = DispatchQueue(label: "ferry.tests.http2-progress")
        let subscription = manager.subscribe(on: events) { batch in
            for case let .progressed(job) in batch { progress.withLock { $0.append(job.progress.bytesSent) } }
        }
        let ids = try manager.enqueue(specs)
        _ = await manager.waitUntilIdle()
        events.sync {}
        subscription.cancel()
        let jobs = manager.snapshot().jobs
        let bodyLengths = ids.map { id in jobs.first { $0.id == id }?.progress.totalBytes ?? -1 }
        manager.stop()
        let census = try await transport.census(within: .seconds(5)) { $0.closing == 0 }
        try await transport.shutdown()
        return Batch(jobs: jobs, bodyLengths: bodyLengths, census: census, progress: progress.withLock { $0 })
    }

    /// Checks that every job succeeded, that the server received each body once (by its length)
    /// over `serverProtocol`, and that the pool has nothing leased or waiting; returns the log.
    @discardableResult
    static func expectEachOnce(_ batch: Batch, server: NginxServer, over serverProtocol: String,
                               sourceLocation: SourceLocation = #_sourceLocation) -> [LogLine] {
        let failures = batch.jobs.filter { $0.state != .succeeded }.map { $0.lastError?.description ?? "\($0.state)" }
        #expect(failures.isEmpty, "\(failures.count) failed: \(failures.prefix(3))", sourceLocation: sourceLocation)
        let lines = server.accessLog.compactMap(LogLine.init)
        #expect(lines.count == batch.jobs.count, "\(lines.count) requests for \(batch.jobs.count) files", sourceLocation: sourceLocation)
        #expect(lines.allSatisfy { $0.status == "200" && $0.serverProtocol == serverProtocol },
                "\(server.accessLog.prefix(3))", sourceLocation: sourceLocation)
        #expect(lines.map(\.contentLength).sorted() == batch.bodyLengths.sorted(), "a body missing or twice",
                sourceLocation: sourceLocation)
        #expect(batch.census.leased == 0 && batch.census.waiting == 0 && batch.census.connecting == 0,
                "\(batch.census)", sourceLocation: sourceLocation)
        return lines
    }

    @Test("200 small files at concurrency 8 go over HTTP/2 on one connection (or very few), each once")
    func manySmallFilesShareOneConnection() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates)
        let batch = try await Self.upload(sizes: (0..<200).map { 100 + $0 }, to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority, offersHTTP2: true))
        let lines = Self.expectEachOnce(batch, server: server, over: "HTTP/2.0")
        let connections = Set(lines.map(\.connection))
        #expect(connections.count <= 2, "\(connections.count) connections")
    }

    @Test("without --http2, HTTP/1.1 with a server that offers HTTP/2")
    func http1ByDefault() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates)
        let options = ConnectionOptions(certificateAuthorityFile: certificates.authority)
        let batch = try await Self.upload(sizes: (0..<20).map { 100 + $0 }, to: "https://127.0.0.1:\(server.port)/upload",
                                          options: options)
        Self.expectEachOnce(batch, server: server, over: "HTTP/1.1")
    }

    @Test("a 128 MiB file arrives whole over HTTP/2 (flow control), with progress on the way")
    func largeFile() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates)
        let batch = try await Self.upload(sizes: [128 << 20], to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority, offersHTTP2: true),
                                          concurrency: 1)
        Self.expectEachOnce(batch, server: server, over: "HTTP/2.0")
        let total = try #require(batch.bodyLengths.first)
        #expect(batch.progress.contains { $0 > 0 && $0 < total }, "no progress before the end of \(total): \(batch.progress)")
        #expect(batch.progress == batch.progress.sorted(), "progress went back")
    }

    @Test("nginx's GOAWAY after 10 requests a connection: 100 files all arrive, each once")
    func goingAway() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates, serverLines: "keepalive_requests 10;")
        let batch = try await Self.upload(sizes: (0..<100).map { 100 + $0 }, to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority, offersHTTP2: true))
        let lines = Self.expectEachOnce(batch, server: server, over: "HTTP/2.0")
        #expect(Set(lines.map(\.connection)).count >= 10, "GOAWAY did not end connections")
        let retried = batch.jobs.filter { $0.attempts != 1 }.map(\.attemptHistory)
        #expect(retried.isEmpty, "streams the server refused were counted as attempts: \(retried.prefix(2))")
    }

    @Test("an early answer over HTTP/2 (nginx's 413 while the body streams) is the outcome; the connection carries on")
    func earlyAnswer() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates, serverLines: "client_max_body_size 1k;")
        let batch = try await Self.upload(sizes: [4 << 20, 4 << 20, 4 << 20], to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority, offersHTTP2: true))
        #expect(batch.jobs.allSatisfy { $0.state == .failed && $0.response?.status == 413 },
                "\(batch.jobs.map { $0.lastError?.description ?? "" })")
        #expect(batch.census.leased == 0 && batch.census.waiting == 0, "\(batch.census)")
        let lines = server.accessLog.map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count == 3 && lines.allSatisfy { $0.count == 7 && $0[2] == "413" && $0[4] == "HTTP/2.0" }, "\(server.accessLog)")
        #expect(Set(lines.map { $0.count == 7 ? $0[5] : "" }).count == 1, "one connection: \(server.accessLog)")
    }

    @Test("an HTTP/2 connection carrying no stream closes after the pool's idle time")
    func idleConnectionCloses() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates)
        let dir = TemporaryDirectory()
        var configuration = HTTPTransport.Configuration()
        // Long enough that the connection is surely still open when the batch has been reported
        // (1 s was not, once in about 45 runs on a loaded machine), short enough to wait for.
        configuration.pooledIdleTimeout = .seconds(4)
        let transport = HTTPTransport(configuration: configuration)
        let manager = UploadManager(configuration: .init(concurrencyLimit: 3), transport: transport)
        try manager.enqueue((0..<3).map { index in
            UploadJobSpec(url: "https://127.0.0.1:\(server.port)/upload", files: [QueuedFile.capture(path: dir.file("f\(index)", bytes: 100))],
                          connection: ConnectionOptions(certificateAuthorityFile: certificates.authority, offersHTTP2: true))
        })
        let summary = await manager.waitUntilIdle()
        manager.stop()
        #expect(summary.succeeded == 3)
        #expect(transport.connectionCensus.idle == 1, "\(transport.connectionCensus)")
        let closed = try await transport.census(within: .seconds(10)) { $0 == ConnectionPoolCensus() }
        #expect(closed == ConnectionPoolCensus(), "\(closed)")
        try await transport.shutdown()
        #expect(Set(server.accessLog.compactMap(LogLine.init).map(\.serverProtocol)) == ["HTTP/2.0"])
    }

    @Test("an HTTP/2 connection with a stream open stays open past the pool's idle time")
    func connectionWithOpenStreamOutlivesIdleTime() async throws {
        let certificates = try TestCertificates()
        // nginx's limit_req holds every request after the first for 2 s (30 a minute): the second
        // stream waits, open and quiet, twice the pool's idle time.
        let server = try Self.nginx(certificates, serverLines: "limit_req zone=slow burst=5;",
                                    httpLines: "limit_req_zone $server_port zone=slow:1m rate=30r/m;")
        let started = ContinuousClock.now
        let batch = try await Self.upload(sizes: [100, 101], to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority, offersHTTP2: true),
                                          concurrency: 2, pooledIdleTimeout: .seconds(1))
        #expect(ContinuousClock.now - started > .milliseconds(1500), "nginx did not hold the second request")
        let lines = Self.expectEachOnce(batch, server: server, over: "HTTP/2.0")
        #expect(Set(lines.map(\.connection)).count == 1, "\(server.accessLog)")
        #expect(batch.jobs.allSatisfy { $0.attempts == 1 }, "\(batch.jobs.map(\.attemptHistory))")
    }

    @Test("HTTP/2 through a proxy's CONNECT tunnel")
    func throughTunnel() async throws {
        let certificates = try TestCertificates()
        let server = try Self.nginx(certificates)
        let proxy = try Tinyproxy(connectPorts: [server.port])
        let batch = try await Self.upload(sizes: (0..<30).map { 100 + $0 }, to: "https://127.0.0.1:\(server.port)/upload",
                                          options: ConnectionOptions(certificateAuthorityFile: certificates.authority,
                                                                     httpsProxy: proxy.url(), offersHTTP2: true))
        Self.expectEachOnce(batch, server: server, over: "HTTP/2.0")
        #expect(proxy.requests.filter { $0.hasPrefix("CONNECT") }.count <= 2, "\(proxy.requests)")
    }
}
