import Foundation
import Receiver
import TestSupport
import Testing
import TextFormat

/// Tests of the built `ferry` binary (`$FERRY_BINARY`, else the debug build's, `FerryBinary`).
@Suite("ferry serve binary")
struct SpawnedBinaryTests {
    @Test("--port 0 prints the URL first, then one JSON log line per request, nothing else")
    func urlAndLog() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let server = try SpawnedReceiver(arguments: ["--port", "0", "--dir", directory.uploads])
        defer { Task { await server.stop() } }
        let uploadURL = try #require(await server.waitForLines(1).first, "no URL line")
        let match = try #require(uploadURL.wholeMatch(of: /(http:\/\/127\.0\.0\.1:(\d+))\/upload/),
                                 "first line is the upload URL: \(uploadURL)")
        #expect(Int(match.2).map { $0 > 0 } == true)
        let first = String(match.1)

        let path = try directory.writeSource("bin", RandomBytes.make(5_000, seed: 11))
        let upload = try await Curl.run(["-F", "who=me", "-F", Curl.fileField("f", path: path, filename: "日本.bin"), first + "/upload"])
        #expect(upload.status == 200)
        let home = try await Curl.run([first + "/"])
        #expect(home.body.contains("curl -F"))

        let lines = await server.waitForLines(3)
        try #require(lines.count == 3, "URL + 2 log lines: \(lines)")
        let decoder = JSONDecoder()
        let uploadLog = try decoder.decode(RequestLog.self, from: Data(lines[1].utf8))
        let record = try ReceiverHarness.decodeRecord(upload.body)
        #expect(uploadLog.method == "POST")
        #expect(uploadLog.path == "/upload")
        #expect(uploadLog.status == 200)
        #expect(uploadLog.bytes > 5_000)
        #expect(uploadLog.fields == record.fields)
        #expect(uploadLog.files == record.files)
        let homeLog = try decoder.decode(RequestLog.self, from: Data(lines[2].utf8))
        #expect(homeLog.method == "GET" && homeLog.path == "/" && homeLog.status == 200)

        #expect(await server.stop() == 0, "SIGTERM stops it cleanly")
        #expect(server.lines.count == 3, "nothing else on standard output: \(server.lines)")
    }

    @Test("bad options fail with a message instead of starting")
    func badOptions() async throws {
        let badRate = try FerryBinary.commandLine(["serve", "--fail-rate", "2"])
        let (code, output, errorOutput) = try await ChildProcess.run(badRate[0], Array(badRate.dropFirst()))
        #expect(code != 0)
        #expect(output.isEmpty)
        #expect(errorOutput.contains("--fail-rate"))
        let badSize = try FerryBinary.commandLine(["serve", "--max-body", "lots"])
        let (sizeCode, _, sizeError) = try await ChildProcess.run(badSize[0], Array(badSize.dropFirst()))
        #expect(sizeCode != 0)
        #expect(sizeError.contains("--max-body"))
    }

    /// The upload size for the memory test: `$FERRY_BIG_UPLOAD_BYTES`, else 1 GiB for a release
    /// binary and 32 MiB for a debug one (multipart-kit's parser runs at about 1.5 MB/s unoptimised;
    /// 32 MiB held in memory would still show: the idle server already peaks near 38 MiB).
    static func bigUploadSize() -> Int64 {
        if let text = ProcessInfo.processInfo.environment["FERRY_BIG_UPLOAD_BYTES"], let size = ByteCount.parse(text) {
            return size
        }
        return FerryBinary.path.contains("/release/") ? 1 << 30 : 32 << 20
    }

    @Test("a big upload by curl streams to disk: peak RSS stays under 64 MiB and barely grows")
    func bigUploadMemory() async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let size = Self.bigUploadSize()
        let source = directory.source + "/big.bin"
        // Sparse file with some real data spread through it, so the content is not all zeros.
        try await blocking {
            let descriptor = open(source, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
            guard descriptor >= 0, ftruncate(descriptor, off_t(size)) == 0 else { throw TestFailure("cannot create \(source)") }
            defer { close(descriptor) }
            let block = RandomBytes.make(65_536, seed: 99)
            for offset in stride(from: Int64(0), to: size, by: Int64.Stride(max(size / 64, 65_536))) {
                let length = Int(min(Int64(block.count), size - offset))
                _ = block.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, length, off_t(offset)) }
            }
        }
        let expectedHash = try await ChildProcess.sha256sum(source)

        let server = try SpawnedReceiver(arguments: ["--port", "0", "--dir", directory.uploads])
        defer { Task { await server.stop() } }
        let url = String(try #require(await server.waitForLines(1).first).dropLast("/upload".count))
        _ = try await Curl.run([url + "/"])
        let before = try server.memoryKiB("VmHWM")

        let started = ContinuousClock.now
        let result = try await Curl.run(["-F", Curl.fileField("file", path: source, filename: "big.bin"), url + "/upload"])
        let elapsed = ContinuousClock.now - started
        let peak = try server.memoryKiB("VmHWM")
        #expect(result.status == 200, "\(result.body) \(result.errorOutput)")
        let record = try ReceiverHarness.decodeRecord(result.body)
        #expect(record.files.first?.size == size)
        #expect(record.files.first?.sha256 == expectedHash)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.uploads + "/big.bin")
        #expect((attributes[.size] as? NSNumber)?.int64Value == size)
        #expect(try await ChildProcess.sha256sum(directory.uploads + "/big.bin") == expectedHash)
        #expect(peak < 64 * 1024, "VmHWM \(peak) KiB after \(size) bytes in \(elapsed)")
        #expect(peak - before < 16 * 1024, "VmHWM grew from \(before) to \(peak) KiB during the upload")
        print("ferry-receiver big upload: \(size) bytes in \(elapsed), VmHWM \(before) -> \(peak) KiB")
    }

    @Test("kill -9 mid-upload leaves no cut file under its name; the next start removes the staged rest")
    func killedMidUpload() async throws {
        // A body timeout longer than any stall of a loaded test run: the half-sent body waits,
        // staged, for the kill (with the default 60 s, a run that kept this test from looking for
        // 60 s found the receiver had given up on it and removed its staged file).
        let first = try await SpawnedReceiver.start(["--body-timeout", "600"])
        let uploads = try #require(first.uploads)
        let staging = uploads.path + "/.ferry-partial"
        let stagedFiles = { ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).filter { $0.hasSuffix(".part") } }
        let body = RawMultipart.body([.file("f", filename: "cut.bin", RandomBytes.make(400_000, seed: 31))])
        let port = try #require(URL(string: first.baseURL)?.port)
        let connection = try await RawHTTPConnection.connect(
            port: port, sending: Array(RawMultipart.head(length: body.count).utf8) + body.prefix(300_000))
        defer { connection.close() }
        // Until the first 256 KiB are on disk (written in 256 KiB steps).
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let sizes = stagedFiles().compactMap { try? FileManager.default.attributesOfItem(atPath: staging + "/" + $0)[.size] as? NSNumber }
            if sizes.contains(where: { $0.intValue > 0 }) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(stagedFiles().count == 1, "the arriving file is staged")
        await first.killAbruptly()
        #expect(try first.savedNames() == [], "nothing under its own name after the kill")
        #expect(stagedFiles().count == 1)

        let second = try await SpawnedReceiver.start(in: uploads)
        defer { second.terminate() }
        #expect(stagedFiles() == [], "the killed receiver's staged file is removed at the next start")
        let whole = RawMultipart.request(body: RawMultipart.body([.file("f", filename: "cut.bin", RandomBytes.make(1_000, seed: 32))]))
        let again = try await RawHTTPConnection.connect(port: try #require(URL(string: second.baseURL)?.port), sending: Array(whole))
        defer { again.close() }
        #expect(try await again.readResponse(timeout: 30)?.status == 200)
        #expect(try second.savedNames() == ["cut.bin"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: uploads.path + "/cut.bin")) == Data(RandomBytes.make(1_000, seed: 32)))
    }
}
