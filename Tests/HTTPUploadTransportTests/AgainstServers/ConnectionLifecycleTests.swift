import Foundation
import HTTPUploadTransport
import Multipart
import TestSupport
import Testing
import UploadModel
import UploadEngine

/// The manager on the real `HTTPTransport` against scripted raw-socket servers that end
/// connections the awkward ways real servers do. For each: the right outcome, each file
/// processed exactly once (counted by the server), and no connection lost from the pool (a
/// following batch of 1,000 uploads completes and nothing stays leased).
@Suite("Connection lifecycle against scripted servers", .serialized, .timeLimit(.minutes(3)))
struct ConnectionLifecycleTests {
    private struct Run {
        let summary: UploadSummary
        let jobs: [UploadJob]
    }

    /// Uploads `count` small files named `prefix-N.txt` and waits until the queue is idle.
    private func upload(_ count: Int, prefix: String, to url: String, over transport: HTTPTransport,
                        retries: Int = 3, concurrency: Int = 8, bytes: Int = 200) async throws -> Run {
        let dir = TemporaryDirectory()
        let paths = (0..<count).map { dir.file("\(prefix)-\($0).txt", bytes: bytes + $0 % 100) }
        let manager = UploadManager(
            configuration: .init(
                concurrencyLimit: concurrency,
                retryPolicy: RetryPolicy(maximumRetries: retries, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(50)),
                idleTimeout: .seconds(20)
            ),
            transport: transport
        )
        try manager.enqueue(paths.map { UploadJobSpec(url: url, files: [QueuedFile.capture(path: $0)]) })
        let summary = await manager.waitUntilIdle()
        let jobs = manager.snapshot().jobs
        manager.stop()
        return Run(summary: summary, jobs: jobs)
    }

    /// Switches the server to plain keep-alive and checks that 1,000 more uploads complete on
    /// the same transport, each once, and that no connection is left leased or waited for.
    private func expectNoLeak(_ server: ScriptedHTTPServer, _ transport: HTTPTransport) async throws {
        server.behave(.keepAlive)
        let run = try await upload(1_000, prefix: "after", to: server.url, over: transport, retries: 0)
        #expect(run.summary.succeeded == 1_000)
        #expect(run.summary.failed == 0)
        let processed = server.processed.filter { $0.key.hasPrefix("after-") }
        #expect(processed.count == 1_000)
        #expect(processed.values.allSatisfy { $0 == 1 })
        let census = transport.connectionCensus
        #expect(census.leased == 0 && census.connecting == 0 && census.waiting == 0, "\(census)")
    }

    private func expectEachProcessedOnce(_ server: ScriptedHTTPServer, prefix: String, count: Int) {
        let processed = server.processed.filter { $0.key.hasPrefix(prefix + "-") }
        #expect(processed.count == count)
        let duplicates = processed.filter { $0.value != 1 }
        #expect(duplicates.isEmpty, "processed more than once: \(duplicates.sorted { $0.key < $1.key }.prefix(5))")
    }

    @Test("a server that answers and closes at once: every upload succeeds once; dead reuses are re-sent unseen")
    func answerAndClose() async throws {
        let server = try ScriptedHTTPServer(.answerAndClose)
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        let run = try await upload(300, prefix: "close", to: server.url, over: transport)
        #expect(run.summary.succeeded == 300)
        #expect(run.summary.failed == 0)
        let retried = run.jobs.filter { $0.attempts != 1 }
        #expect(retried.isEmpty, "a re-send on a new connection is not an attempt: \(retried.prefix(3).map(\.attemptHistory))")
        expectEachProcessedOnce(server, prefix: "close", count: 300)
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }

    @Test("a 413 before the body was read, then a close: the 413 is the outcome, once, for small and large bodies")
    func earlyRejection() async throws {
        let server = try ScriptedHTTPServer(.rejectBeforeBody(status: 413))
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        let small = try await upload(100, prefix: "small", to: server.url, over: transport)
        let large = try await upload(8, prefix: "large", to: server.url, over: transport, bytes: 4_000_000)
        for run in [small, large] {
            #expect(run.summary.succeeded == 0)
            for job in run.jobs {
                #expect(job.lastError == .serverRejected(status: 413, retryAfter: nil), "\(String(describing: job.lastError))")
                #expect(job.attempts == 1)
                #expect(job.response?.status == 413)
            }
        }
        #expect(server.answered == 108, "each request answered once, never re-sent")
        #expect(server.processed.isEmpty)
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }

    @Test("connections warmed before the first requests carry them: none more is opened, nothing sent before a request")
    func warmedConnections() async throws {
        let server = try ScriptedHTTPServer(.keepAlive)
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        transport.warm(for: try UploadTarget(server.url), options: ConnectionOptions(), count: 3, connectTimeout: .seconds(10))
        let accepted = await ThreadPoll.act(within: .seconds(20), when: { server.connections == 3 }) {}
        #expect(accepted, "the server accepted \(server.connections) connections")
        #expect(server.answered == 0)
        let run = try await upload(3, prefix: "warm", to: server.url, over: transport, retries: 0, concurrency: 3)
        #expect(run.summary.succeeded == 3)
        let connections = server.connections
        #expect(connections == 3, "the requests took the warmed connections")
        expectEachProcessedOnce(server, prefix: "warm", count: 3)
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }

    @Test("an idle keep-alive connection closed just as it is reused: re-sent once on a new connection, no attempt counted")
    func closedOnReuse() async throws {
        let server = try ScriptedHTTPServer(.closeIdleOnReuse)
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        let run = try await upload(200, prefix: "reuse", to: server.url, over: transport, retries: 0, concurrency: 4)
        #expect(run.summary.succeeded == 200)
        #expect(run.summary.failed == 0)
        #expect(run.jobs.allSatisfy { $0.attempts == 1 })
        expectEachProcessedOnce(server, prefix: "reuse", count: 200)
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }

    @Test("a reused connection's server reads the whole request and closes unanswered: never re-sent, 'may have arrived'")
    func swallowedOnReuse() async throws {
        let server = try ScriptedHTTPServer(.swallowOnReuse)
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        let run = try await upload(40, prefix: "swallow", to: server.url, over: transport, retries: 3, concurrency: 1)
        let swallowed = server.swallowed.filter { $0.key.hasPrefix("swallow-") }
        #expect(!swallowed.isEmpty, "the server swallowed no request: the test did not reuse a connection")
        #expect(swallowed.values.allSatisfy { $0 == 1 }, "\(swallowed)")
        for (name, _) in swallowed {
            #expect(server.processed[name] == nil, "\(name) was sent again after the server had read it whole")
            let job = run.jobs.first { $0.spec.files.first?.path.hasSuffix("/" + name) == true }
            #expect(job?.state == .failed)
            #expect(job?.mayHaveArrived == true, "\(String(describing: job?.lastError))")
            #expect(job?.attempts == 1)
        }
        #expect(run.summary.succeeded + swallowed.count == 40)
        #expect(run.summary.succeeded == server.processed.filter { $0.key.hasPrefix("swallow-") }.count)
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }

    @Test("a server keeping idle connections for 1 s (Keep-Alive: timeout=1): none is reused, every upload once")
    func shortKeepAliveHint() async throws {
        let server = try ScriptedHTTPServer(.keepAliveHint(seconds: 1))
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        let run = try await upload(30, prefix: "hint", to: server.url, over: transport, retries: 0, concurrency: 2)
        #expect(run.summary.succeeded == 30)
        expectEachProcessedOnce(server, prefix: "hint", count: 30)
        #expect(server.connections == 30, "a connection the server keeps for a second or less is not reused")
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }

    @Test("a server allowing 5 requests per connection (the last with Connection: close): every upload once")
    func requestsPerConnection() async throws {
        let server = try ScriptedHTTPServer(.requestsPerConnection(5))
        defer { server.stop() }
        let transport = HTTPTransport(configuration: .init())
        let run = try await upload(500, prefix: "limit", to: server.url, over: transport, retries: 0)
        #expect(run.summary.succeeded == 500)
        #expect(run.summary.failed == 0)
        expectEachProcessedOnce(server, prefix: "limit", count: 500)
        #expect(server.connections >= 100)
        try await expectNoLeak(server, transport)
        try await transport.shutdown()
    }
}
