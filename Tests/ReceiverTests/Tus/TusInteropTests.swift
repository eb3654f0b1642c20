import Foundation
import Receiver
import TestSupport
import Testing
import Glibc

/// tuspy, the official tus client (PyPI `tuspy`, installed by `scripts/test.sh`), against
/// `ferry serve` run as users run it (uid 65534 under root).
@Suite("Interoperability: tuspy uploads to ferry serve", .timeLimit(.minutes(2)))
struct TusInteropTests {
    private struct Outcome: Decodable {
        var url: String
        var offset: Int
        var startOffset: Int?
    }

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/tus_client.py").path

    /// Runs `tus_client.py` and decodes what it printed.
    private static func tuspy(_ arguments: [String]) async throws -> Outcome {
        let (code, output, errors) = try await ChildProcess.run("/usr/bin/env", ["python3", script] + arguments)
        try #require(code == 0, "tus_client.py \(arguments.first ?? "") failed (scripts/test.sh installs tuspy): \(errors)")
        return try JSONDecoder().decode(Outcome.self, from: Data(output.utf8))
    }

    private static func metadataJSON(_ metadata: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: metadata), as: UTF8.self)
    }

    @Test("a few bytes and 3 MiB in 1 MiB chunks (sha1 checksums) arrive byte-exact with their non-ASCII metadata")
    func uploads() async throws {
        let server = try UnprivilegedServe([])
        defer { Task { await server.stop() } }
        let url = try #require(await server.waitForURL(), "no URL: \(server.errorText)")
        let small = server.root + "/small.txt"
        let big = server.root + "/big.bin"
        try TestFile.write(Array("hello".utf8), to: small)
        let bigBytes = RandomBytes.make(3 << 20, seed: 51)
        try TestFile.write(bigBytes, to: big)
        let smallMetadata = ["filename": "petit résumé.txt", "filetype": "text/plain", "note": "日本語 ✓", "empty": ""]
        let bigMetadata = ["filename": "grand.bin", "owner": "Zoë"]

        let first = try await Self.tuspy(["upload", url + "/files/", small, try Self.metadataJSON(smallMetadata), "1048576"])
        #expect(first.offset == 5)
        let second = try await Self.tuspy(["upload", url + "/files/", big, try Self.metadataJSON(bigMetadata), "1048576"])
        #expect(second.offset == 3 << 20)
        #expect(second.url.hasPrefix(url + "/files/"))

        let uploads = server.root + "/uploads"
        #expect(try Data(contentsOf: URL(fileURLWithPath: uploads + "/petit résumé.txt")) == Data("hello".utf8))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: uploads + "/grand.bin"))) == bigBytes)
        let listed = try await Curl.run([url + "/uploads"])
        let records = try JSONDecoder().decode([UploadRecord].self, from: Data(listed.body.utf8))
        try #require(records.count == 2, "\(listed.body)")
        #expect(records[0].fields == smallMetadata.mapValues { [$0] })
        #expect(records[0].files.first?.contentType == "text/plain")
        #expect(records[1].fields == bigMetadata.mapValues { [$0] })
        #expect(records[1].files.first?.sha256 == (try await ChildProcess.sha256sum(big)))
        let patches = server.logLines.filter { $0["method"] as? String == "PATCH" }
        #expect(patches.count == 4, "1 + 3 PATCHes logged: \(server.lines)")
    }

    @Test("tuspy stops half-way; a new tuspy client resumes from the server's offset; the file is byte-exact")
    func resume() async throws {
        let server = try UnprivilegedServe([])
        defer { Task { await server.stop() } }
        let url = try #require(await server.waitForURL(), "no URL: \(server.errorText)")
        let path = server.root + "/resumed.bin"
        let bytes = RandomBytes.make(3 << 20, seed: 52)
        try TestFile.write(bytes, to: path)

        let part = try await Self.tuspy(["upload", url + "/files/", path, try Self.metadataJSON(["filename": "resumed.bin"]), "524288", "1048576"])
        #expect(part.offset == 1 << 20)
        #expect(!FileManager.default.fileExists(atPath: server.root + "/uploads/resumed.bin"), "unfinished: not in --dir")
        let rest = try await Self.tuspy(["resume", part.url, path, "524288"])
        #expect(rest.startOffset == 1 << 20, "the new client asked the server (HEAD) where to go on")
        #expect(rest.offset == 3 << 20)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: server.root + "/uploads/resumed.bin"))) == bytes)
    }

    @Test("--throttle 4M lets a test kill tuspy mid-PATCH (no checksum); what arrived is kept, a new tuspy finishes byte-exact")
    func killedMidPatch() async throws {
        let server = try UnprivilegedServe(["--throttle", "4M"])
        defer { Task { await server.stop() } }
        let url = try #require(await server.waitForURL(), "no URL: \(server.errorText)")
        let path = server.root + "/killed.bin"
        let bytes = RandomBytes.make(16 << 20, seed: 53)
        try TestFile.write(bytes, to: path)

        // One PATCH of the whole file, killed once the server has staged 1 MiB of it: up to about
        // 4 MiB more are in the sockets' buffers (tcp_wmem), the rest is never sent. The kill
        // follows what the server holds, not a clock: a loaded runner can pause a test for
        // seconds, and 16 MiB at 4 MiB/s leave it almost 4 s. Without a checksum, since bytes a
        // checksum cannot vouch for are discarded.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, "upload", url + "/files/", path, try Self.metadataJSON(["filename": "killed.bin"]), "33554432", "-", "nochecksum"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let staging = server.root + "/uploads/.ferry-tus"
        let stagedBytes = {
            let parts = (try? FileManager.default.contentsOfDirectory(atPath: staging))?.filter { $0.hasSuffix(".part") } ?? []
            return parts.compactMap { try? FileManager.default.attributesOfItem(atPath: staging + "/" + $0)[.size] as? Int }.max() ?? 0
        }
        // Killed by the watching thread the moment 1 MiB is staged (a cooperative thread can be
        // held by other tests for longer than the upload lasts).
        let pid = process.processIdentifier
        _ = await ThreadPoll.act(within: .seconds(30), when: { stagedBytes() >= 1 << 20 || !process.isRunning }) {
            kill(pid, SIGKILL)
        }
        let staged = stagedBytes()
        kill(process.processIdentifier, SIGKILL)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(staged >= 1 << 20, "the PATCH was under way when tuspy was killed")

        var logged: [String: Any]?
        for _ in 0..<200 where logged == nil {
            logged = server.logLines.first { $0["method"] as? String == "PATCH" }
            if logged == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let entry = try #require(logged, "the cut PATCH is logged: \(server.lines)")
        let kept = try #require(entry["bytes"] as? Int)
        #expect(kept > 0 && kept < bytes.count, "part of the body arrived: \(entry)")
        #expect((entry["error"] as? String)?.contains("were kept") == true, "\(entry)")
        let location = try #require(entry["path"] as? String)
        let rest = try await Self.tuspy(["resume", url + location, path, "33554432"])
        #expect(rest.startOffset == kept, "resumed exactly after the kept bytes")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: server.root + "/uploads/killed.bin"))) == bytes)
    }
}
