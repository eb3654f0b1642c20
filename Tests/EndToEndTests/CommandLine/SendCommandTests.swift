import FileSystem
import Foundation
import Multipart
import Receiver
import TestSupport
import Testing
import UploadModel
import UploadJournal

/// The built `ferry send` binary against the real receiver: exit codes, JSON Lines, dry run,
/// signals and the journal surviving SIGKILL.
@Suite("ferry send (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct SendCommandTests {
    @Test("uploads files with -F parameters, prints JSON Lines and exits 0; a bad file makes it exit 1")
    func jsonAndExitCodes() async throws {
        let dir = TemporaryDirectory()
        let good = dir.file("report.txt", bytes: 2_000)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            let ok = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload", "-F", #"note="hello; \"there\"""#,
                                       "-F", "tag=x", good], stateHome: dir.path("state"))
            #expect(try await ok.exitStatus() == 0, "\(ok.errorText)")
            let events = ok.jsonEvents.compactMap { $0["event"] as? String }
            #expect(events.first == "queued")
            #expect(events.contains("started"))
            #expect(events.suffix(2) == ["succeeded", "summary"])
            let succeeded = try #require(ok.jsonEvents.first { $0["event"] as? String == "succeeded" })
            #expect(succeeded["status"] as? Int == 200)
            #expect(succeeded["path"] as? String == good)
            #expect(succeeded["pathBytesHex"] == nil, "only a path that is not UTF-8 carries its bytes")
            let record = try #require(server.receivedUploads.first)
            #expect(record.fields == ["note": [#"hello; "there""#], "tag": ["x"]])

            let bad = try FerryProcess(["send", "--url", server.baseURL + "/upload", good, dir.path("nope.txt")],
                                       stateHome: dir.path("state"))
            #expect(try await bad.exitStatus() == 1)
            #expect(bad.outputLines.contains { $0.contains("nope.txt: no such file") })
            #expect(bad.outputLines.last?.hasPrefix("1 succeeded, 1 failed") == true)
        }
    }

    @Test("a folder given as a file fails alone and counts no bytes: the summary totals the files' bytes, not the requests'")
    func folderCountsNoBytes() async throws {
        let dir = TemporaryDirectory()
        let good = dir.file("two.txt", bytes: 2)
        let folder = dir.path("realdir")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            let process = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload", folder, good],
                                           stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 1)
            let summary = try #require(process.jsonEvents.last)
            #expect(summary["event"] as? String == "summary")
            #expect(summary["failed"] as? Int == 1)
            #expect(summary["total"] as? Int == 2, "\(summary)")
            #expect(summary["bytes"] as? Int == 2, "\(summary)")
        }
    }

    @Test("--json escapes what JSON needs escaped in paths and response bodies: quotes, backslashes, control characters")
    func jsonEscaping() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("say \"hi\" \\ back\ttab ü.txt", bytes: 10)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            let process = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload", path], stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 0, "\(process.errorText)")
            #expect(process.jsonEvents.count == process.outputLines.count, "every line is JSON: \(process.outputLines)")
            let succeeded = try #require(process.jsonEvents.first { $0["event"] as? String == "succeeded" })
            #expect(succeeded["path"] as? String == path)
            let response = try #require(succeeded["response"] as? String)
            let body = try JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any]
            #expect(body != nil, "the receiver's JSON answer comes back intact: \(response)")
        }
    }

    @Test("a path argument (FILE or -F name=@path) that is not UTF-8 is uploaded under its raw name; --json adds pathBytesHex")
    func nonUTF8PathArgument() async throws {
        let dir = TemporaryDirectory()
        let name = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)  // "café.txt" in Latin-1
        let path = dir.file(rawName: name, bytes: 1_000, fill: 0x7A)
        let raw = FileSystemName.bytes(of: path)
        let received = dir.path("received")
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: received)) { server in
            let process = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload"], rawArguments: [raw],
                                           stateHome: dir.path("state"))
            #expect(try await process.exitStatus() == 0, "\(process.errorText)")
            let succeeded = try #require(process.jsonEvents.first { $0["event"] as? String == "succeeded" })
            #expect(succeeded["path"] as? String == dir.path + "/caf\\xE9.txt")
            #expect(succeeded["pathBytesHex"] as? String == raw.map { String(format: "%02x", $0) }.joined())
            let file = try #require(server.receivedUploads.first?.files.first)
            #expect(file.filename == "caf\\xE9.txt")
            #expect(file.size == 1_000)
            let saved = (Array(received.utf8) + [0x2F] + name + [0]).map { CChar(bitPattern: $0) }
            var info = stat()
            #expect(stat(saved, &info) == 0 && info.st_size == 1_000, "saved under the raw name bytes")

            let form = try FerryProcess(["send", "--url", server.baseURL + "/upload", "-F"],
                                        rawArguments: [Array("doc=@".utf8) + raw], stateHome: dir.path("state"))
            #expect(try await form.exitStatus() == 0, "\(form.errorText)")
            let part = try #require(server.receivedUploads.last?.files.first)
            #expect(part.field == "doc")
            #expect(part.filename == "caf\\xE9.txt")

            let human = try FerryProcess(["send", "--url", server.baseURL + "/upload"], rawArguments: [raw],
                                         stateHome: dir.path("state"))
            #expect(try await human.exitStatus() == 0, "\(human.errorText)")
            #expect(human.outputLines.contains { $0.hasPrefix("done    caf\\xE9.txt  ") }, "\(human.outputLines)")
        }
    }

    @Test("usage errors exit 2", arguments: [
        ["send", "a.txt"],
        ["send", "--url", "ftp://x/y", "a.txt"],
        ["send", "--url", "http://h/", "-F", "novalue", "a.txt"],
        ["send", "--url", "http://h/", "-H", "no colon", "a.txt"],
        ["send", "--url", "http://h/", "--concurrency", "0", "a.txt"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let dir = TemporaryDirectory()
        let process = try FerryProcess(arguments, stateHome: dir.path)
        #expect(try await process.exitStatus() == 2)
        #expect(!process.errorText.isEmpty)
    }

    @Test("--dry-run prints the exact request and sends nothing")
    func dryRun() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("a.txt", bytes: 3, fill: 0x41)
        let process = try FerryProcess(["send", "--dry-run", "--url", "http://example.test:8080/up?x=1", "-H", "X-Trace: 7",
                                        "-F", "k=v", file], stateHome: dir.path)
        #expect(try await process.exitStatus() == 0)
        let lines = process.outputLines
        try #require(lines.count > 8, "\(lines)")
        #expect(Array(lines.prefix(5)) == ["POST /up?x=1 HTTP/1.1", "Host: example.test:8080", "User-Agent: ferry/\(FerryRelease.version)",
                                           "Accept: */*", "X-Trace: 7"])
        let boundary = try #require(lines[5].split(separator: "=").last.map(String.init))
        #expect(lines[5] == "Content-Type: multipart/form-data; boundary=\(boundary)")
        let body = lines.drop(while: { !$0.isEmpty }).dropFirst().joined(separator: "\r\n") + "\r\n"
        #expect(lines[6] == "Content-Length: \(body.utf8.count)")
        #expect(body.contains("name=\"k\"\r\n\r\nv\r\n"))
        #expect(body.contains("name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nAAA\r\n"))
        #expect(body.hasSuffix("--\(boundary)--\r\n"))
    }

    @Test("--dry-run shows the fields of a resumable upload last for a file over 64 KiB (by default), none for a smaller one or with --no-resumable; --print-curl passes them to curl")
    func dryRunResumable() async throws {
        let dir = TemporaryDirectory()
        let large = dir.file("large.bin", bytes: 70_000, fill: 0x41)
        let small = dir.file("small.txt", bytes: 3, fill: 0x41)
        func head(_ arguments: [String]) async throws -> [String] {
            let dry = try FerryProcess(["send", "--dry-run", "--url", "http://example.test/up"] + arguments, stateHome: dir.path)
            #expect(try await dry.exitStatus() == 0)
            return Array(dry.outputLines.prefix { !$0.isEmpty })
        }
        let fields = ["Upload-Draft-Interop-Version: 6", "Upload-Complete: ?1"]
        let resumable = try await head([large])
        #expect(Array(resumable.suffix(2)) == fields, "\(resumable)")
        let whole = try await head([small])
        #expect(!whole.contains(fields[0]), "\(whole)")
        let off = try await head(["--no-resumable", large])
        #expect(!off.contains(fields[0]), "\(off)")
        let curl = try FerryProcess(["send", "--print-curl", "--url", "http://example.test/up", large], stateHome: dir.path)
        #expect(try await curl.exitStatus() == 0)
        #expect(curl.outputLines.first?.contains("-H 'Upload-Draft-Interop-Version: 6' -H 'Upload-Complete: ?1'") == true,
                "\(curl.outputLines)")
    }

    @Test("FILEs mixed with options, after them and after --, are all planned with every option applied")
    func filesAmongOptions() async throws {
        let dir = TemporaryDirectory()
        let first = dir.file("first.txt", bytes: 1)
        let second = dir.file("second.txt", bytes: 1)
        let dashed = dir.file("-dashed.txt", bytes: 1)
        let process = try FerryProcess(["send", first, "-F", "k=v", "--url", "http://example.test/up", second,
                                        "-H", "X-Trace: 7", "--field=doc", "--dry-run", "--", dashed], stateHome: dir.path)
        #expect(try await process.exitStatus() == 0)
        let text = process.outputLines.joined(separator: "\n")
        #expect(process.outputLines.filter { $0 == "POST /up HTTP/1.1" }.count == 3)
        #expect(process.outputLines.filter { $0 == "X-Trace: 7" }.count == 3)
        for name in ["first.txt", "second.txt", "-dashed.txt"] {
            #expect(text.contains("name=\"doc\"; filename=\"\(name)\""), "\(name) missing")
        }
        #expect(text.components(separatedBy: "name=\"k\"").count == 4)
    }

    @Test("a process killed with SIGKILL mid-upload loses no job: --resume sends it")
    func journalSurvivesKill() async throws {
        let dir = TemporaryDirectory()
        // Larger than loopback's socket buffers and the receiver's read-ahead together, so the
        // body cannot have gone out whole when the kill lands (a release build writes 6 MB into
        // them at once: the job was then rightly "may have arrived" and --resume left it).
        let file = dir.file("survivor.bin", bytes: 64_000_000)
        let state = dir.path("state")
        // One port for both runs: it stalls the first, then relays to the receiver.
        let relay = try RelayPort()
        defer { relay.close() }
        let first = try FerryProcess(["send", "--json", "--retry", "0", "--url", relay.baseURL + "/upload", file], stateHome: state)
        let started = try await first.wait(upTo: .seconds(20)) { $0.jsonEvents.contains { $0["event"] as? String == "started" } }
        #expect(started, "\(first.errorText)")
        first.signal(SIGKILL)
        _ = try await first.exitStatus()

        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            relay.relay(to: server.port)
            let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
            #expect(try await resumed.exitStatus() == 0, "\(resumed.errorText)")
            #expect(server.receivedUploads.flatMap(\.files).map(\.filename) == ["survivor.bin"])
            let again = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
            #expect(try await again.exitStatus() == 0)
            #expect(server.receivedUploads.count == 1, "a finished job must not be sent twice")
        }
    }

    @Test("while one ferry has the journal open, --resume elsewhere refuses and names it; nothing is sent twice")
    func resumeWhileAnotherRuns() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("busy.bin", bytes: 100_000)
        let state = dir.path("state")
        let slow = ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: FaultPlan(delayMilliseconds: 3000))
        try await withRunningReceiver(slow) { server in
            let first = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload", file], stateHome: state)
            let started = try await first.wait(upTo: .seconds(20)) { $0.jsonEvents.contains { $0["event"] as? String == "started" } }
            #expect(started, "\(first.errorText)")
            let second = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
            #expect(try await second.exitStatus() == 1)
            #expect(second.errorText.hasPrefix("ferry: "), "\(second.errorText)")
            #expect(second.errorText.contains("in use by another ferry process (pid \(first.processID))"), "\(second.errorText)")
            #expect(try await first.exitStatus() == 0, "\(first.errorText)")
            let third = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
            #expect(try await third.exitStatus() == 0, "\(third.errorText)")
            #expect(server.receivedUploads.count == 1, "the job must be sent once")
        }
    }

    @Test("SIGINT, SIGTERM and SIGHUP cancel the upload in flight, keep the job queued and exit 130",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func interrupt(signal: Int32) async throws {
        let dir = TemporaryDirectory()
        // More than the socket buffers hold (see `jsonIntoClosedPipe`), so the job goes back to queued.
        let file = dir.file("interrupted.bin", bytes: 16_000_000)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: FaultPlan(stall: true))) { server in
            let process = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload", file], stateHome: dir.path("state"))
            let started = try await process.wait(upTo: .seconds(20)) { $0.jsonEvents.contains { $0["event"] as? String == "started" } }
            #expect(started)
            process.signal(signal)
            #expect(try await process.exitStatus(within: .seconds(5)) == 130)
            #expect(process.errorText.contains("--resume"))
            let jobs = try UploadJournal(path: dir.path("state") + "/ferry/journal.sqlite").allJobs()
            #expect(jobs.map(\.state) == [.queued])
        }
    }

    @Test("SIGINT while a long list is still being queued: the first uploads have started, and every file is kept for --resume")
    func interruptWhileQueueing() async throws {
        let dir = TemporaryDirectory()
        let count = 5_000
        let files = (0..<count).map { dir.file("f\($0).txt", bytes: 20) }
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"), faults: FaultPlan(stall: true))) { server in
            let process = try FerryProcess(["send", "--json", "--url", server.baseURL + "/upload"] + files, stateHome: dir.path("state"))
            // The first slice starts long before the last is queued.
            let started = try await process.wait(upTo: .seconds(20)) { $0.jsonEvents.contains { $0["event"] as? String == "started" } }
            #expect(started)
            process.signal(SIGINT)
            #expect(try await process.exitStatus(within: .seconds(30)) == 130, "\(process.errorText)")
            let jobs = try UploadJournal(path: dir.path("state") + "/ferry/journal.sqlite").allJobs()
            #expect(jobs.count == count)
            #expect(Set(jobs.flatMap(\.spec.files).map(\.path)) == Set(files))
            // Queued, or (a small body that went out whole to the stalled server) failed as "may have arrived".
            #expect(jobs.allSatisfy { $0.state == .queued || $0.mayHaveArrived })
        }
    }

    @Test("--json into a closed pipe (| head) ends the run with 141, no crash, the job kept for --resume")
    func jsonIntoClosedPipe() async throws {
        let dir = TemporaryDirectory()
        // More than the socket buffers hold: with the receiver reading nothing, the body cannot
        // have gone out when the run stops, so the job goes back to queued (not "may have
        // arrived"). Against a stalled receiver about 4 MB usually go out (the send buffer grows to
        // 4 MiB), but once a whole 6 MB body did.
        let file = dir.file("unread.bin", bytes: 16_000_000)
        let state = dir.path("state")
        // One port for both runs: it stalls the first, then relays to the receiver.
        let relay = try RelayPort()
        defer { relay.close() }
        let process = try FerryProcess(["send", "--json", "--url", relay.baseURL + "/upload", file],
                                       stateHome: state, closingOutput: true)
        let status = try await process.exitStatus(within: .seconds(20))
        #expect(status == 141, "\(process.errorText)")
        #expect(process.errorText.contains("ferry: standard output was closed by its reader; unfinished jobs are kept"),
                "\(process.errorText)")
        let jobs = try UploadJournal(path: state + "/ferry/journal.sqlite").allJobs()
        #expect(jobs.map(\.state) == [.queued])

        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("received"))) { server in
            relay.relay(to: server.port)
            let resumed = try FerryProcess(["send", "--json", "--resume"], stateHome: state)
            #expect(try await resumed.exitStatus() == 0, "\(resumed.errorText)")
            #expect(server.receivedUploads.flatMap(\.files).map(\.filename) == ["unread.bin"])
        }
    }

    @Test("human output into a closed pipe: the upload is done, then the run ends with 141 instead of crashing")
    func humanOutputIntoClosedPipe() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("done.bin", bytes: 100_000)
        try await withRunningReceiver(ReceiverConfiguration(port: 0, directory: dir.path("r"))) { server in
            let process = try FerryProcess(["send", "--url", server.baseURL + "/upload", file],
                                           stateHome: dir.path("state"), closingOutput: true)
            #expect(try await process.exitStatus(within: .seconds(20)) == 141, "\(process.errorText)")
            #expect(process.errorText.contains("standard output was closed by its reader"), "\(process.errorText)")
            #expect(server.receivedUploads.flatMap(\.files).map(\.filename) == ["done.bin"])
        }
    }

    @Test("--dry-run into a closed pipe stops quietly with 141")
    func dryRunIntoClosedPipe() async throws {
        let dir = TemporaryDirectory()
        let file = dir.file("big.bin", bytes: 2_000_000)
        let process = try FerryProcess(["send", "--dry-run", "--url", "http://127.0.0.1:9/upload", file],
                                       stateHome: dir.path("state"), closingOutput: true)
        #expect(try await process.exitStatus() == 141)
        #expect(process.errorText.isEmpty, "\(process.errorText)")
    }
}
