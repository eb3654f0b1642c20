import Foundation
import TestSupport
import Testing
import UploadModel
import UploadJournal

/// `ferry send --tus` (the built binary, as uid 65534) against `ferry serve`'s tus endpoint
/// (also the built binary): a kill -9 past 40 % and `--resume` from the server's offset, a file
/// changed meanwhile, an upload the server lost, and the dry run.
@Suite("ferry send --tus (the built binary)", .serialized, .timeLimit(.minutes(3)))
struct TusSendCommandTests {
    static let size = 3 << 20
    static let chunk = 256 * 1024

    static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 13) }
    }

    /// The `uploadOffset` of the last event that carries one.
    static func lastOffset(_ process: FerryProcess) -> Int? {
        process.jsonEvents.compactMap { $0["uploadOffset"] as? Int }.last
    }

    /// The PATCH body bytes `ferry serve` logged from its `index`th log line on.
    static func patchedBytes(_ server: SpawnedReceiver, from index: Int) -> Int {
        server.logLines.dropFirst(index).filter { $0["method"] as? String == "PATCH" }.compactMap { $0["bytes"] as? Int }.reduce(0, +)
    }

    /// Starts `ferry send --tus` of `file` and kills it with SIGKILL once the server confirmed
    /// more than 40 %; returns the offset the client last saw confirmed.
    static func killPastFortyPercent(_ file: String, server: SpawnedReceiver, state: String) async throws -> Int {
        let first = try FerryProcess(["send", "--json", "--tus", "--chunk-size", "256K", "--retry", "0",
                                      "--url", server.baseURL + "/files/", "-F", "note=über", file], stateHome: state)
        // Killed by the watching thread the moment the offset is past 40 %.
        let past = await ThreadPoll.act(within: .seconds(60), when: { (Self.lastOffset(first) ?? 0) > Self.size * 2 / 5 }) {
            first.signal(SIGKILL)
        }
        if !past { first.signal(SIGKILL) }
        _ = try await first.exitStatus()
        #expect(past, "never past 40 %: \(first.outputLines.suffix(3)) \(first.errorText)")
        let offset = try #require(Self.lastOffset(first))
        #expect(offset < Self.size, "killed before the end")
        #expect(first.jsonEvents.contains { ($0["uploadURL"] as? String)?.contains("/files/") == true })
        return offset
    }

    @Test("kill -9 past 40 % to a throttled ferry serve, then --resume: the exact file, at most the rest plus one chunk sent again")
    func killAndResume() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "1M"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let content = Self.bytes(Self.size, seed: 7)
        let file = try dir.write("large.bin", content)
        let state = dir.path("state")
        let offset = try await Self.killPastFortyPercent(file, server: server, state: state)
        let before = server.logLines.count

        let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        #expect(try await resumed.exitStatus(within: .seconds(60)) == 0, "\(resumed.errorText)")
        let sentAgain = Self.patchedBytes(server, from: before)
        #expect(sentAgain <= Self.size - offset + Self.chunk, "sent \(sentAgain) after the restart from \(offset)")
        #expect(sentAgain < Self.size * 3 / 5 + Self.chunk)
        #expect(!server.logLines.dropFirst(before).contains { $0["method"] as? String == "POST" }, "no new upload")
        #expect(server.savedContents().contains(Data(content)), "the server holds the exact file")
        let succeeded = try #require(resumed.jsonEvents.first { $0["event"] as? String == "succeeded" })
        let notes = succeeded["tusNotes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("upload created at ") } && notes.contains { $0.hasPrefix("resumed at ") }, "\(notes)")
        #expect(succeeded["uploadOffset"] as? Int == Self.size)
    }

    /// A tus server that creates `/files/written-ahead` (no checksum, no creation-with-upload) and
    /// kills the client (the PID in the file `sys.argv[1]`) with SIGKILL as soon as a PATCH's
    /// head arrives, before reading a byte of it or answering.
    static let killOnPatchServer = """
        import os, signal, socket, sys, time
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        print("PORT", listener.getsockname()[1], flush=True)
        while True:
            client, _ = listener.accept()
            reader = client.makefile("rb")
            while True:
                head = []
                line = reader.readline()
                while line not in (b"", b"\\r\\n"):
                    head.append(line.decode("latin-1"))
                    line = reader.readline()
                if not head:
                    break
                method = head[0].split(" ")[0]
                if method == "PATCH":
                    while not os.path.exists(sys.argv[1]) or not open(sys.argv[1]).read().strip():
                        time.sleep(0.001)
                    os.kill(int(open(sys.argv[1]).read()), signal.SIGKILL)
                    print("killed", flush=True)
                    break
                tus = "Tus-Resumable: 1.0.0\\r\\n"
                if method == "OPTIONS":
                    answer = "HTTP/1.1 204 No Content\\r\\n" + tus + "Tus-Version: 1.0.0\\r\\nTus-Extension: creation\\r\\n\\r\\n"
                else:
                    answer = "HTTP/1.1 201 Created\\r\\n" + tus + "Location: /files/written-ahead\\r\\nContent-Length: 0\\r\\n\\r\\n"
                client.sendall(answer.encode())
            client.close()
        """

    @Test("the upload URL is in the journal before the first PATCH byte: killed as the PATCH arrives, the row names the upload")
    func uploadURLWrittenAhead() async throws {
        let dir = TemporaryDirectory()
        let pidFile = dir.path("client.pid")
        let server = try PythonScriptServer(script: Self.killOnPatchServer, arguments: [pidFile])
        defer { server.stop() }
        let file = try dir.write("ahead.bin", Self.bytes(Self.size, seed: 12))
        let state = dir.path("state")
        let client = try FerryProcess(["send", "--json", "--tus", "--retry", "0", "--url", "http://127.0.0.1:\(server.port)/files/", file],
                                      stateHome: state)
        try String(client.processID).write(toFile: pidFile, atomically: true, encoding: .utf8)
        #expect(try await client.exitStatus(within: .seconds(30)) == SIGKILL, "\(client.errorText)")
        let jobs = try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs()
        #expect(jobs.count == 1)
        #expect(jobs.first?.tus?.uploadURL == "http://127.0.0.1:\(server.port)/files/written-ahead", "\(String(describing: jobs.first?.tus))")
    }

    @Test("a file changed after the kill fails on --resume with that reason and is never resumed into a mixed file")
    func changedFileFails() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "1M"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let file = try dir.write("changing.bin", Self.bytes(Self.size, seed: 8))
        let state = dir.path("state")
        _ = try await Self.killPastFortyPercent(file, server: server, state: state)
        let before = server.logLines.count
        try Data(Self.bytes(Self.size, seed: 9)).write(to: URL(fileURLWithPath: file))

        let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        #expect(try await resumed.exitStatus(within: .seconds(60)) == 1)
        let failed = try #require(resumed.jsonEvents.first { $0["event"] as? String == "failed" })
        #expect((failed["error"] as? String)?.contains("changed since it was queued") == true, "\(failed)")
        #expect(!server.logLines.dropFirst(before).contains { $0["method"] as? String == "PATCH" })
    }

    @Test("an upload the server lost (404 on HEAD) is started again on --resume, whole, and said so")
    func lostUploadStartsAgain() async throws {
        let server = try await SpawnedReceiver.start(["--throttle", "1M"])
        defer { server.terminate() }
        let dir = TemporaryDirectory()
        let content = Self.bytes(Self.size, seed: 10)
        let file = try dir.write("lost.bin", content)
        let state = dir.path("state")
        _ = try await Self.killPastFortyPercent(file, server: server, state: state)
        // The server loses it: terminated by another client.
        let location = try #require(server.logLines.first { $0["method"] as? String == "PATCH" }?["path"] as? String)
        let delete = Process()
        delete.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        delete.arguments = ["-s", "-X", "DELETE", "-H", "Tus-Resumable: 1.0.0", server.baseURL + location]
        try delete.run()
        while delete.isRunning { try await Task.sleep(for: .milliseconds(10)) }

        let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
        #expect(try await resumed.exitStatus(within: .seconds(60)) == 0, "\(resumed.errorText)")
        #expect(server.savedContents().contains(Data(content)))
        let succeeded = try #require(resumed.jsonEvents.first { $0["event"] as? String == "succeeded" })
        #expect((succeeded["tusNotes"] as? [String] ?? []).contains { $0.contains("was gone (404)") }, "\(succeeded)")
    }

    @Test("--dry-run prints OPTIONS and the creation POST with Upload-Length, Upload-Metadata and Tus-Resumable")
    func dryRun() async throws {
        let dir = TemporaryDirectory()
        let file = try dir.write("dry.bin", Self.bytes(1000, seed: 1))
        let process = try FerryProcess(["send", "--dry-run", "--tus", "--url", "http://127.0.0.1:9/files/", "-F", "k=v", file],
                                       stateHome: dir.path("state"))
        #expect(try await process.exitStatus() == 0, "\(process.errorText)")
        // (`outputLines` drops each line's CR.)
        #expect(process.outputLines == [
            "OPTIONS /files/ HTTP/1.1", "Host: 127.0.0.1:9", "User-Agent: ferry/\(FerryRelease.version)", "Accept: */*", "Content-Length: 0", "",
            "POST /files/ HTTP/1.1", "Host: 127.0.0.1:9", "User-Agent: ferry/\(FerryRelease.version)", "Accept: */*", "Tus-Resumable: 1.0.0",
            "Upload-Length: 1000", "Upload-Metadata: filename ZHJ5LmJpbg==,filetype YXBwbGljYXRpb24vb2N0ZXQtc3RyZWFt,k dg==",
            "Content-Length: 0", "",
        ])
    }
}
