import Foundation
import HTTPUploadTransport
import Receiver
import TestSupport
import Testing
import UploadModel
import UploadEngine

/// The real transport through Debian's tinyproxy, started on 127.0.0.1 by each test: plain
/// http forwarded (absolute-form requests) to the real receiver, https through `CONNECT` to
/// nginx with TLS; credentials, refusals, a proxy that is down, `no_proxy`, and a batch that
/// leaves no connection behind. Each checks the proxy's own log and what the server received.
@Suite("Uploads through a proxy (tinyproxy)", .serialized, .timeLimit(.minutes(3)))
struct ProxyTransportTests {
    private struct Run {
        let summary: UploadSummary
        let jobs: [UploadJob]
    }

    private static let credentials = (user: "ferry", password: "s3cret")

    /// Uploads `count` small files named `prefix-N.txt` with `options` and waits until the queue
    /// is idle.
    private func upload(_ count: Int, prefix: String = "file", to url: String, options: ConnectionOptions,
                        over transport: HTTPTransport, retries: Int = 0, concurrency: Int = 4,
                        connectTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(20)) async throws -> Run {
        let dir = TemporaryDirectory()
        let paths = (0..<count).map { dir.file("\(prefix)-\($0).txt", bytes: 200 + $0 % 100) }
        let manager = UploadManager(
            configuration: .init(
                concurrencyLimit: concurrency,
                retryPolicy: RetryPolicy(maximumRetries: retries, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(50)),
                connectTimeout: connectTimeout,
                idleTimeout: idleTimeout
            ),
            transport: transport
        )
        try manager.enqueue(paths.map { UploadJobSpec(url: url, files: [QueuedFile.capture(path: $0)], connection: options) })
        let summary = await manager.waitUntilIdle()
        let jobs = manager.snapshot().jobs
        manager.stop()
        return Run(summary: summary, jobs: jobs)
    }

    /// The POST lines of nginx's access log.
    private func posts(_ nginx: NginxServer) -> [String] {
        nginx.accessLog.filter { $0.hasPrefix("POST ") }
    }

    /// Options sending https through `proxy`, trusting the test's authority.
    private func tunnelOptions(_ proxy: String, trusting certificates: TestCertificates) -> ConnectionOptions {
        ConnectionOptions(certificateAuthorityFile: certificates.authority, httpsProxy: proxy)
    }

    @Test("plain http goes to the proxy as absolute-form requests and reaches the receiver once each")
    func forwardsPlainHTTP() async throws {
        let proxy = try Tinyproxy()
        try await LiveUpload.run { url, _, server, book in
            let transport = HTTPTransport()
            let run = try await upload(3, to: url, options: ConnectionOptions(httpProxy: proxy.url()), over: transport)
            try await transport.shutdown()
            #expect(run.summary.succeeded == 3)
            let port = try #require(URL(string: url)?.port)
            #expect(proxy.requests == Array(repeating: "POST http://127.0.0.1:\(port)/upload HTTP/1.1", count: 3))
            let received = book.logs.flatMap(\.files).map(\.filename).sorted()
            #expect(received == ["file-0.txt", "file-1.txt", "file-2.txt"])
            _ = server
        }
    }

    @Test("https goes through CONNECT, TLS end to end; the server gets each file once")
    func tunnelsHTTPS() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        let transport = HTTPTransport()
        let run = try await upload(3, to: "https://127.0.0.1:\(nginx.port)/upload",
                                   options: tunnelOptions(proxy.url(), trusting: certificates), over: transport)
        try await transport.shutdown()
        #expect(run.summary.succeeded == 3, "\(run.jobs.map { $0.lastError?.description ?? "" })")
        #expect(proxy.requests.contains("CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"))
        #expect(posts(nginx).count == 3)
    }

    @Test("a proxy that wants credentials: 407 in words, not retried")
    func wantsCredentials() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port], credentials: Self.credentials)
        let transport = HTTPTransport()
        let run = try await upload(1, to: "https://127.0.0.1:\(nginx.port)/upload",
                                   options: tunnelOptions(proxy.url(), trusting: certificates), over: transport, retries: 3)
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        #expect(job.lastError == .transferFailed(reason: .proxyAuthenticationFailed(
            proxy: "127.0.0.1:\(proxy.port)", status: 407, credentialsGiven: false)))
        #expect(job.lastError?.description == "the proxy at 127.0.0.1:\(proxy.port) wants credentials (407): "
            + "give them in --proxy http://user:password@127.0.0.1:\(proxy.port)")
        #expect(job.attempts == 1)
        #expect(proxy.requests.contains("CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"))
        #expect(posts(nginx).isEmpty)
    }

    @Test("wrong credentials: the proxy refused them (tinyproxy answers CONNECT with 401), not retried")
    func wrongCredentials() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port], credentials: Self.credentials)
        let transport = HTTPTransport()
        let run = try await upload(1, to: "https://127.0.0.1:\(nginx.port)/upload",
                                   options: tunnelOptions(proxy.url(credentials: ("ferry", "wrong")), trusting: certificates), over: transport, retries: 3)
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        #expect(job.lastError == .transferFailed(reason: .proxyAuthenticationFailed(
            proxy: "127.0.0.1:\(proxy.port)", status: 401, credentialsGiven: true)))
        #expect(job.lastError?.description.hasPrefix("the proxy at 127.0.0.1:\(proxy.port) refused the credentials (401)") == true)
        #expect(job.attempts == 1)
        #expect(posts(nginx).isEmpty)
    }

    @Test("the right credentials: https through CONNECT and plain http both pass the proxy")
    func rightCredentials() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port], credentials: Self.credentials)
        let transport = HTTPTransport()
        let https = try await upload(2, to: "https://127.0.0.1:\(nginx.port)/upload",
                                     options: tunnelOptions(proxy.url(credentials: Self.credentials), trusting: certificates), over: transport)
        #expect(https.summary.succeeded == 2, "\(https.jobs.map { $0.lastError?.description ?? "" })")
        #expect(posts(nginx).count == 2)
        try await LiveUpload.run { url, _, _, book in
            let http = try await upload(2, prefix: "plain", to: url,
                                        options: ConnectionOptions(httpProxy: proxy.url(credentials: Self.credentials)),
                                        over: transport)
            #expect(http.summary.succeeded == 2, "\(http.jobs.map { $0.lastError?.description ?? "" })")
            #expect(book.logs.flatMap(\.files).count == 2)
        }
        try await transport.shutdown()
        #expect(proxy.requests.filter { $0.hasPrefix("CONNECT ") }.count >= 1)
        #expect(proxy.requests.filter { $0.hasPrefix("POST http://") }.count == 2)
    }

    @Test("a plain-http request the proxy answers with 407 reports the proxy's 407, not retried")
    func plainHTTPProxy407() async throws {
        // tinyproxy answers a non-CONNECT request without credentials with 401, so a scripted
        // proxy gives the 407 here.
        let scriptedProxy = try ScriptedHTTPServer(.rejectBeforeBody(status: 407))
        defer { scriptedProxy.stop() }
        let proxyAddress = try #require(URL(string: scriptedProxy.url).map { "\($0.host!):\($0.port!)" })
        let transport = HTTPTransport()
        let run = try await upload(1, to: "http://127.0.0.1:9/upload",
                                   options: ConnectionOptions(httpProxy: "http://" + proxyAddress), over: transport, retries: 3)
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        #expect(job.lastError == .transferFailed(reason: .proxyAuthenticationFailed(proxy: proxyAddress, status: 407, credentialsGiven: false)))
        #expect(job.attempts == 1)
    }

    @Test("a CONNECT the proxy refuses (a port it does not allow): 403 in words, naming proxy and server")
    func refusedTunnel() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [443])
        let transport = HTTPTransport()
        let run = try await upload(1, to: "https://127.0.0.1:\(nginx.port)/upload",
                                   options: tunnelOptions(proxy.url(), trusting: certificates), over: transport, retries: 3)
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        guard case let .transferFailed(reason: .proxyRefusedTunnel(proxyAddress, target, status, _))? = job.lastError else {
            Issue.record("expected a refused tunnel, got \(String(describing: job.lastError))")
            return
        }
        #expect(proxyAddress == "127.0.0.1:\(proxy.port)")
        #expect(target == "127.0.0.1:\(nginx.port)")
        #expect(status == 403)
        #expect(job.lastError?.description.hasPrefix(
            "the proxy at 127.0.0.1:\(proxy.port) refused to connect to 127.0.0.1:\(nginx.port) (403") == true)
        #expect(job.attempts == 1)
        #expect(posts(nginx).isEmpty)
    }

    @Test("a proxy that is down: could not connect to the proxy, retried like a connect failure")
    func proxyDown() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let transport = HTTPTransport()
        let run = try await upload(1, to: "https://127.0.0.1:9/upload",
                                   options: ConnectionOptions(httpsProxy: "http://127.0.0.1:\(port)"), over: transport, retries: 2)
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        #expect(job.lastError?.description == "could not connect to the proxy 127.0.0.1:\(port): connection refused")
        #expect(job.attempts == 3)
    }

    @Test("no_proxy: a host in the list goes straight to the server, the proxy sees nothing; another list does not")
    func noProxyBypass() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        var options = tunnelOptions(proxy.url(), trusting: certificates)
        options.noProxy = ["localhost", "127.0.0.1"]
        let transport = HTTPTransport()
        let bypassed = try await upload(2, to: "https://127.0.0.1:\(nginx.port)/upload", options: options, over: transport)
        #expect(bypassed.summary.succeeded == 2)
        #expect(proxy.requests.isEmpty)
        #expect(posts(nginx).count == 2)
        options.noProxy = ["example.com", "127.0.0.2"]
        let proxied = try await upload(1, to: "https://127.0.0.1:\(nginx.port)/upload", options: options, over: transport)
        try await transport.shutdown()
        #expect(proxied.summary.succeeded == 1)
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"])
    }

    @Test("200 small uploads through CONNECT and 200 forwarded: all succeed once, no connection left leased or waiting")
    func manyThroughProxy() async throws {
        let (nginx, certificates) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        let transport = HTTPTransport()
        let https = try await upload(200, prefix: "tls", to: "https://127.0.0.1:\(nginx.port)/upload",
                                     options: tunnelOptions(proxy.url(), trusting: certificates), over: transport, concurrency: 8)
        #expect(https.summary.succeeded == 200, "\(Set(https.jobs.compactMap { $0.lastError?.description }))")
        #expect(posts(nginx).count == 200)
        let tunnels = proxy.requests.count
        #expect(tunnels >= 1 && tunnels <= 8 && proxy.requests.allSatisfy { $0 == "CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1" },
                "one tunnel per pooled connection: \(proxy.requests.prefix(3))")
        try await LiveUpload.run { url, _, _, book in
            let http = try await upload(200, prefix: "plain", to: url, options: ConnectionOptions(httpProxy: proxy.url()),
                                        over: transport, concurrency: 8)
            #expect(http.summary.succeeded == 200, "\(Set(http.jobs.compactMap { $0.lastError?.description }))")
            let received = book.logs.flatMap(\.files).map(\.filename)
            #expect(received.count == 200 && Set(received).count == 200)
            #expect(proxy.requests.filter { $0.hasPrefix("POST http://") }.count == 200)
        }
        let census = transport.connectionCensus
        #expect(census.leased == 0 && census.connecting == 0 && census.waiting == 0, "\(census)")
        try await transport.shutdown()
    }

    @Test("through the tunnel, a certificate the client does not trust fails the connect as a TLS failure, once")
    func untrustedThroughTunnel() async throws {
        let (nginx, _) = try NginxServer.answeringOverTLS()
        let proxy = try Tinyproxy(connectPorts: [nginx.port])
        let transport = HTTPTransport()
        let run = try await upload(1, to: "https://127.0.0.1:\(nginx.port)/upload",
                                   options: ConnectionOptions(httpsProxy: proxy.url()), over: transport, retries: 3)
        let census = transport.connectionCensus
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        guard case .transferFailed(reason: .tlsRejected(host: "127.0.0.1", problem: .certificateIssuerUnknown))? = job.lastError else {
            Issue.record("expected an untrusted authority, got \(String(describing: job.lastError))")
            return
        }
        #expect(job.attempts == 1)
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(nginx.port) HTTP/1.1"])
        #expect(posts(nginx).isEmpty)
        #expect(census.leased == 0 && census.connecting == 0 && census.waiting == 0, "\(census)")
    }

    @Test("a server that accepts but never completes the TLS handshake fails the connect within its timeout")
    func handshakeWithinConnectTimeout() async throws {
        let silent = try ScriptedHTTPServer(.keepAlive)
        defer { silent.stop() }
        let url = silent.url.replacingOccurrences(of: "http://", with: "https://")
        let transport = HTTPTransport()
        let started = ContinuousClock.now
        let run = try await upload(1, to: url, options: ConnectionOptions(verifiesCertificates: false), over: transport,
                                   connectTimeout: .seconds(1), idleTimeout: .seconds(60))
        let elapsed = ContinuousClock.now - started
        try await transport.shutdown()
        let job = try #require(run.jobs.first)
        #expect(job.lastError == .transferFailed(reason: .connectTimedOut))
        #expect(elapsed < .seconds(20))
    }
}
