import Foundation
import Receiver
import TestSupport
import Testing

@Suite("Starting and stopping in-process")
struct LifecycleTests {
    @Test("start reports the bound port and URL; shutdown frees the port")
    func startAndStop() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let announced = LogCollector()
        var configuration = ReceiverConfiguration(port: 0, directory: directory.uploads + "/nested/dir", logLevel: .critical)
        configuration.onListening = { url in announced.append(RequestLog(method: "", path: url, status: 0, bytes: 0, durationMs: 0)) }
        let server = try await ReceiverServer.start(configuration)
        do {
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
            #expect(announced.all.map(\.path) == [server.baseURL])
            #expect(server.directory == directory.uploads + "/nested/dir")
            #expect(FileManager.default.fileExists(atPath: server.directory))
            #expect(try await Curl.run([server.baseURL + "/"]).status == 200)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        await server.shutdown()  // a second call is harmless
        let after = try await Curl.run(["--max-time", "3", server.baseURL + "/"])
        #expect(after.exitCode == 7, "connection refused after shutdown: \(after.errorOutput)")
    }

    @Test("once shutdown returns, a new receiver starts on the same port at once, though another process holds the old listening socket and a closed connection waits in TIME_WAIT there")
    func restartOnSamePort() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let configuration = ReceiverConfiguration(port: 0, directory: directory.uploads, logLevel: .critical)
        var server = try await ReceiverServer.start(configuration)
        let port = server.port
        for round in 1...50 {
            let connection: RawHTTPConnection
            let holder: SocketHolder
            do {
                connection = try await RawHTTPConnection.connect(port: port)
                try await connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(try await connection.readResponse()?.status == 200)
                holder = try SocketHolder(listeningOn: port)
            } catch {
                await server.shutdown()
                throw error
            }
            #expect(holder.holdsSocket)
            await server.shutdown()
            // The receiver closed this connection first, so its TIME_WAIT stays on the port.
            #expect((try? await connection.waitForClose(timeout: 5))?.closed == true)
            connection.close()
            var restarted = configuration
            restarted.port = port
            do {
                server = try await ReceiverServer.start(restarted)
                holder.stop()
            } catch {
                holder.stop()
                Issue.record("round \(round): \(error)")
                return
            }
        }
        let answer = try await Curl.run([server.baseURL + "/"])
        await server.shutdown()
        #expect(answer.status == 200)
    }

    @Test("a taken port is reported as a server error")
    func portTaken() async throws {
        try await ReceiverHarness.run { harness in
            let error = await #expect(throws: ReceiverError.self) {
                _ = try await ReceiverServer.start(
                    ReceiverConfiguration(port: harness.server.port, directory: harness.directory.uploads, logLevel: .critical))
            }
            guard case .serverFailed(.bindFailed(_, let port, _)) = error else {
                Issue.record("expected bindFailed, got \(String(describing: error))")
                return
            }
            #expect(port == harness.server.port)
        }
    }

    @Test("an unusable directory is refused before starting")
    func badDirectory() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let file = try directory.writeSource("plain-file", [1])
        await #expect(throws: ReceiverError.self) {
            _ = try await ReceiverServer.start(ReceiverConfiguration(port: 0, directory: file, logLevel: .critical))
        }
    }

    @Test("a file still arriving is staged, never in the upload directory; shutdown deletes it")
    func shutdownDuringUpload() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let server = try await ReceiverServer.start(ReceiverConfiguration(port: 0, directory: directory.uploads, logLevel: .critical))
        let connection: RawHTTPConnection
        do {
            let file = RawMultipart.Part.file("f", filename: "partial.bin", RandomBytes.make(100_000, seed: 9))
            let body = RawMultipart.body([file])
            connection = try await RawHTTPConnection.connect(port: server.port)
            try await connection.send(Array(RawMultipart.head(length: body.count).utf8) + body.prefix(50_000))
            let deadline = ContinuousClock.now + .seconds(20)
            while try directory.stagedNames().isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try directory.stagedNames().count == 1)
            #expect(try directory.uploadedNames() == [], "no file under its name before it is whole")
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        connection.close()
        #expect(try directory.uploadedNames() == [])
        #expect(try directory.stagedNames() == [])
        #expect(server.receivedUploads.isEmpty)
    }

    @Test("at start, staged files a killed receiver left are removed; one a live receiver holds locked is kept")
    func stagedLeftovers() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let staging = directory.uploads + "/.ferry-partial"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try Data("cut".utf8).write(to: URL(fileURLWithPath: staging + "/0123456789abcdef.part"))
        try Data("live".utf8).write(to: URL(fileURLWithPath: staging + "/fedcba9876543210.part"))
        let held = open(staging + "/fedcba9876543210.part", O_RDONLY | O_CLOEXEC)
        defer { close(held) }
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let server = try await ReceiverServer.start(ReceiverConfiguration(port: 0, directory: directory.uploads, logLevel: .critical))
        await server.shutdown()
        #expect(try directory.stagedNames() == ["fedcba9876543210.part"])
        #expect(try directory.uploadedNames() == [])
    }

    @Test("withRunningReceiver gives a working server and stops it after the body, even on error")
    func scoped() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let configuration = ReceiverConfiguration(port: 0, directory: directory.uploads, logLevel: .critical)
        let url = try await withRunningReceiver(configuration) { server in
            let path = try directory.writeSource("w", Array("scoped".utf8))
            let result = try await Curl.run(["-F", Curl.fileField("f", path: path, filename: "w.txt"), server.baseURL + "/upload"])
            #expect(result.status == 200)
            #expect(server.receivedUploads.first?.files.first?.savedAs == "w.txt")
            return server.baseURL
        }
        // Nothing answers on the stopped server's address any more. (Refused, usually; but tests
        // run in parallel and another test's server — a stalled one, say — may already have
        // been given the freed port, so any failure to get an HTTP answer counts.)
        #expect(try await Curl.run(["--max-time", "3", url + "/"]).exitCode != 0)

        var thrownURL: String?
        await #expect(throws: TestFailure.self) {
            try await withRunningReceiver(configuration) { server in
                thrownURL = server.baseURL
                throw TestFailure("body failed")
            }
        }
        let stopped = try #require(thrownURL)
        #expect(try await Curl.run(["--max-time", "3", stopped + "/"]).exitCode != 0)
    }
}
