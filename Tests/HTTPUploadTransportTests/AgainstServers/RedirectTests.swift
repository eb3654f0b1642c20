import Foundation
import HTTPUploadTransport
import Multipart
import Receiver
import Synchronization
import TestSupport
import Testing
import UploadModel
import UploadProtocols
import UploadEngine

/// Redirects answered by nginx (no one here wrote it) to uploads on the real transport: nginx's
/// `return 3xx` answers, and `/new` passes the request on to a real receiver, which shows what
/// arrived and how often. nginx's access log shows every request it saw, with its method.
@Suite("Redirects against nginx", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: NginxServer.executable != nil, "nginx is not installed (scripts/test.sh installs nginx-light)"))
struct RedirectTests {
    /// The locations every test's nginx has: relative and absolute redirects of each code, a
    /// loop, and `/new`, passed on to the receiver at `RECEIVER` with `X-Forwarded-For`, as
    /// production configurations do (which keeps the receiver from offering a resumable upload's
    /// `104`, which nginx would take for the answer).
    private static let locations = """
        absolute_redirect off;
        location = /old307 { return 307 /new; }
        location = /old308 { return 308 http://127.0.0.1:PORT/new; }
        location = /away307 { return 307 http://localhost:PORT/new; }
        location = /moved301 { return 301 /new; }
        location = /moved302 { return 302 /new; }
        location = /moved303 { return 303 /new; }
        location = /loop { return 307 /loop; }
        location = /nowhere { return 307; }
        location = /new { proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; proxy_pass RECEIVER; }
        """

    /// One megabyte that is not all one byte, so a body that restarted in the wrong place shows.
    private static func file(in directory: TemporaryDirectory) throws -> String {
        try directory.write("report.bin", (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
    }

    /// Uploads one file to nginx's `path` with `-L` or not, behind a receiver; returns the job,
    /// nginx's access log once it has `requests` lines, and what the receiver stored.
    private func upload(
        _ path: String, followsRedirects: Bool, requests: Int, headers: [HeaderField] = [], retries: Int = 3
    ) async throws -> (job: UploadJob, log: [String], received: [UploadRecord], sha256: String) {
        let directory = TemporaryDirectory()
        let file = try Self.file(in: directory)
        return try await LiveUpload.run(retries: retries) { receiverURL, manager, server, _ in
            let nginx = try NginxServer(server: Self.locations.replacingOccurrences(of: "RECEIVER", with: receiverURL))
            defer { nginx.stop() }
            let spec = UploadJobSpec(url: "http://127.0.0.1:\(nginx.port)\(path)", headers: headers,
                                     files: [QueuedFile.capture(path: file)],
                                     connection: ConnectionOptions(followsRedirects: followsRedirects))
            let id = try manager.enqueue([spec])[0]
            _ = await manager.waitUntilIdle()
            let job = try #require(manager.job(id))
            return (job, try await accessLog(of: nginx, lines: requests), server.receivedUploads, try LiveUpload.sha256(of: file))
        }
    }

    @Test("307 and 308 with -L: the whole body arrives once at the new URL; one attempt")
    func followedWithLocationOption() async throws {
        for (path, status) in [("/old307", 307), ("/old308", 308)] {
            let result = try await upload(path, followsRedirects: true, requests: 2)
            #expect(result.job.state == .succeeded, "\(path): \(String(describing: result.job.lastError))")
            #expect(result.job.attempts == 1)
            #expect(result.job.attemptHistory.map(\.status) == [200])
            #expect(result.job.response?.redirects == ["http://127.0.0.1:\(port(of: result.job))/new"])
            #expect(result.received.count == 1, "\(path): arrived \(result.received.count) times")
            #expect(result.received.first?.files.first?.sha256 == result.sha256)
            #expect(result.received.first?.files.first?.size == 1_000_000)
            #expect(methodsAndPaths(result.log).sorted() == ["POST /new 200", "POST \(path) \(status)"])
        }
    }

    @Test("307 and 308 without -L fail naming the new URL and -L; not retried; nothing arrives")
    func refusedWithoutLocationOption() async throws {
        for (path, status) in [("/old307", 307), ("/old308", 308)] {
            let result = try await upload(path, followsRedirects: false, requests: 1)
            let port = port(of: result.job)
            #expect(result.job.state == .failed)
            #expect(result.job.lastError?.description
                    == "the server at 127.0.0.1:\(port) moved this endpoint to http://127.0.0.1:\(port)/new (\(status)); -L follows it")
            #expect(result.job.attempts == 1, "a redirect is not retried")
            #expect(result.received.isEmpty)
            #expect(methodsAndPaths(result.log) == ["POST \(path) \(status)"])
        }
    }

    @Test("301, 302 and 303 with -L fail naming the new URL; nothing is sent as a GET")
    func neverTurnedIntoGet() async throws {
        for status in [301, 302, 303] {
            let result = try await upload("/moved\(status)", followsRedirects: true, requests: 1)
            let port = port(of: result.job)
            #expect(result.job.state == .failed)
            #expect(result.job.lastError?.description
                    == "the server at 127.0.0.1:\(port) moved this endpoint to http://127.0.0.1:\(port)/new (\(status)); send to that URL instead")
            #expect(result.job.attempts == 1)
            #expect(result.received.isEmpty)
            #expect(methodsAndPaths(result.log) == ["POST /moved\(status) \(status)"])
            #expect(!result.log.contains { $0.hasPrefix("GET") })
        }
    }

    @Test("a redirect loop gives up after 10 redirects: 11 requests, one attempt")
    func loop() async throws {
        let result = try await upload("/loop", followsRedirects: true, requests: 11)
        let port = port(of: result.job)
        #expect(result.job.state == .failed)
        #expect(result.job.lastError?.description
                == "gave up after 10 redirects (the last, 307 from 127.0.0.1:\(port), to http://127.0.0.1:\(port)/loop)")
        #expect(result.job.attempts == 1)
        #expect(methodsAndPaths(result.log) == Array(repeating: "POST /loop 307", count: 11))
    }

    @Test("a 307 without a Location fails as such with -L")
    func withoutLocationHeader() async throws {
        let result = try await upload("/nowhere", followsRedirects: true, requests: 1)
        #expect(result.job.state == .failed)
        #expect(result.job.lastError?.description == "the server at 127.0.0.1:\(port(of: result.job)) answered 307 without a Location")
        #expect(result.job.attempts == 1)
        #expect(methodsAndPaths(result.log) == ["POST /nowhere 307"])
    }

    @Test("credentials go along within the server and are dropped for another host")
    func credentialsStayWithTheirHost() async throws {
        let authorization = HeaderField(name: "Authorization", value: "Basic dXBsb2FkZXI6czNjcmV0")
        let same = try await upload("/old307", followsRedirects: true, requests: 2, headers: [authorization])
        #expect(same.job.state == .succeeded)
        #expect(same.log.count == 2)
        #expect(same.log.allSatisfy { $0.contains(#""Basic dXBsb2FkZXI6czNjcmV0""#) }, "\(same.log)")
        let away = try await upload("/away307", followsRedirects: true, requests: 2, headers: [authorization])
        #expect(away.job.state == .succeeded, "\(String(describing: away.job.lastError))")
        #expect(away.log.count == 2)
        let first = away.log.first { $0.hasPrefix("POST /away307 307") }
        let second = away.log.first { $0.hasPrefix("POST /new 200") }
        #expect(first?.contains(#""Basic dXBsb2FkZXI6czNjcmV0""#) == true, "\(away.log)")
        #expect(second?.hasSuffix(#""-" "-""#) == true, "no Authorization for localhost: \(away.log)")
        #expect(away.received.count == 1)
    }

    @Test("never from https to http: refused, naming the URL")
    func httpsToHTTPRefused() async throws {
        let certificates = try TestCertificates()
        let server = try certificates.issue("server")
        let plain = try NginxServer(server: "location / { return 200 'plain'; }")
        defer { plain.stop() }
        let nginx = try NginxServer(listenParameters: "ssl", server: """
            ssl_certificate \(server.certificate);
            ssl_certificate_key \(server.key);
            location = /old { return 307 http://127.0.0.1:\(plain.port)/new; }
            """)
        defer { nginx.stop() }
        let directory = TemporaryDirectory()
        let file = try Self.file(in: directory)
        let transport = HTTPTransport()
        let manager = UploadManager(configuration: .init(concurrencyLimit: 1), transport: transport)
        let spec = UploadJobSpec(url: "https://127.0.0.1:\(nginx.port)/old", files: [QueuedFile.capture(path: file)],
                                 connection: ConnectionOptions(certificateAuthorityFile: certificates.authority, followsRedirects: true))
        let id = try manager.enqueue([spec])[0]
        _ = await manager.waitUntilIdle()
        let job = try #require(manager.job(id))
        manager.stop()
        try await transport.shutdown()
        #expect(job.state == .failed)
        #expect(job.lastError?.description
                == "refused a redirect from https to http: http://127.0.0.1:\(plain.port)/new (307 from 127.0.0.1:\(nginx.port))")
        #expect(job.attempts == 1)
        #expect(methodsAndPaths(try await accessLog(of: nginx, lines: 1)) == ["POST /old 307"])
        #expect(plain.accessLog.isEmpty, "nothing went to the http server")
    }

    @Test("cancelling a job whose redirected request is in flight closes that request's connection")
    func cancelDuringRedirect() async throws {
        let directory = TemporaryDirectory()
        let file = directory.file("note.txt", bytes: 100)
        let configuration = ReceiverConfiguration(port: 0, directory: directory.path, faults: FaultPlan(stall: true))
        try await withRunningReceiver(configuration) { receiver in
            let nginx = try NginxServer(server: "location = /old { return 307 \(receiver.baseURL)/upload; }")
            defer { nginx.stop() }
            let transport = HTTPTransport()
            let manager = UploadManager(configuration: .init(concurrencyLimit: 1, idleTimeout: .seconds(60)), transport: transport)
            let spec = UploadJobSpec(url: "http://127.0.0.1:\(nginx.port)/old", files: [QueuedFile.capture(path: file)],
                                     connection: ConnectionOptions(followsRedirects: true))
            let id = try manager.enqueue([spec])[0]
            // The small request to nginx ends cleanly (its connection goes back idle); the redirected
            // one waits on the stalled receiver.
            let stalled = try await transport.census(within: .seconds(10)) { $0.idle == 1 && $0.leased == 1 }
            #expect(stalled.idle == 1 && stalled.leased == 1, "\(stalled)")
            manager.cancel(id)
            let cancelled = try await transport.census(within: .seconds(10)) { $0.leased == 0 }
            #expect(cancelled.leased == 0, "\(cancelled)")
            // The first request's whole body went out (to nginx, which answered 307): the gate
            // cannot tell that the redirected one's did not, so the job may have arrived. (The
            // connection goes back before the outcome is reported, which then hops to the
            // manager's queue: wait for it.)
            _ = await manager.waitUntilIdle()
            #expect(manager.job(id)?.mayHaveArrived == true)
            manager.stop()
            try await transport.shutdown()
        }
    }

    @Test("the redirected request counts its bytes from 0: what was written never exceeds the body's length")
    func progressRestarts() async throws {
        let directory = TemporaryDirectory()
        let file = try Self.file(in: directory)
        // The receiver reads the whole body and answers 307 after 1.2 s (time to see the first
        // request's count at the body's length); nginx adds the Location, and /new reads the
        // body again (nginx reads and discards it) before its answer.
        let configuration = ReceiverConfiguration(port: 0, directory: directory.path,
                                                  faults: FaultPlan(status: 307, delayMilliseconds: 1200))
        try await withRunningReceiver(configuration) { receiver in
            let nginx = try NginxServer(server: """
                location = /old {
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    proxy_pass \(receiver.baseURL)/upload; add_header Location /new always;
                }
                location = /new { return 200 'stored'; }
                """)
            defer { nginx.stop() }
            let spec = UploadJobSpec(url: "http://127.0.0.1:\(nginx.port)/old", files: [QueuedFile.capture(path: file)],
                                     connection: ConnectionOptions(followsRedirects: true))
            let request = UploadRequest(message: try FormBuilder().message(for: spec), jobID: UploadJobID(1), attempt: 1,
                                        connectTimeout: .seconds(10), idleTimeout: .seconds(30), connection: spec.connection)
            let total = request.message.body.contentLength
            let transport = HTTPTransport()
            let asked = Mutex(0)
            let outcome = Mutex<Result<UploadResponse, UploadError>?>(nil)
            let task = transport.start(request, bodyCompleting: { asked.withLock { $0 += 1 }; return true },
                                       completion: { result in outcome.withLock { $0 = result } })
            // As the manager's progress tick does, only more often.
            var counts: [Int64] = []
            while outcome.withLock({ $0 }) == nil {
                counts.append(task.bytesWritten)
                try await Task.sleep(for: .milliseconds(10))
            }
            counts.append(task.bytesWritten)
            // The first sending asked before its last byte. nginx answers /new without reading the
            // body, so the redirected sending asks only when its last byte goes out before that answer.
            #expect((1...2).contains(asked.withLock { $0 }), "asked \(asked.withLock { $0 }) times")
            try await transport.shutdown()
            #expect((try? outcome.withLock { $0 }?.get())?.status == 200)
            #expect(counts.contains(total), "the first request's bytes were counted: \(counts.suffix(5))")
            #expect(counts.allSatisfy { $0 <= total }, "a count above the body's \(total) bytes: \(counts.max() ?? 0)")
        }
    }

    /// `METHOD PATH STATUS` of each access log line.
    private func methodsAndPaths(_ log: [String]) -> [String] {
        log.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
    }

    /// The port of the nginx a job was sent to.
    private func port(of job: UploadJob) -> Int {
        (try? UploadTarget(job.spec.url))?.port ?? 0
    }

    /// nginx's access log once it has `lines` lines (nginx writes a line when it has finished
    /// with a request, which may be just after the client has its answer), or after 10 s.
    private func accessLog(of nginx: NginxServer, lines: Int) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(10)
        while nginx.accessLog.count < lines, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return nginx.accessLog
    }
}
