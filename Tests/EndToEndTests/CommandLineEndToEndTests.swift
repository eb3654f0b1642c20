import Foundation
import TestSupport
import Testing

/// The built `ferry` binary's command-line output: `--help` and `ferry send`'s human lines.
@Suite("Command line end to end", .serialized, .timeLimit(.minutes(2)))
struct CommandLineEndToEndTests {
    private func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-e2e-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("`ferry --help` tells how to try the interface (--demo) and where it uploads (--url)")
    func helpMentionsDemoAndURL() throws {
        let scratch = try scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (status, output) = try Spawn.run(try FerryBinary.commandLine(["--help"]), scratch: scratch)
        #expect(status == 0)
        #expect(output.contains("--demo"), "\(output)")
        #expect(output.contains("--url"), "\(output)")
    }

    @Test("`ferry send` names each file once, shows file sizes, and a short run's summary gives no made-up rate")
    func sendLinesReadWell() async throws {
        let receiver = try await SpawnedReceiver.start()
        let scratch = try scratch()
        defer { receiver.terminate(); try? FileManager.default.removeItem(at: scratch) }
        try TestFile.write(Array("hi".utf8), to: scratch.appendingPathComponent("two.txt").path)
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let send = try FerryBinary.commandLine(
            ["send", "--url", receiver.baseURL + "/upload", scratch.path + "/two.txt", scratch.path + "/missing.txt",
             scratch.path + "/folder"])
        let (status, output) = try Spawn.run(["env", "XDG_STATE_HOME=\(scratch.path)/state"] + send, scratch: scratch)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(status == 1)
        #expect(lines.contains("done    two.txt  2 B  HTTP 200"), "\(output)")
        #expect(lines.contains("failed  missing.txt: no such file"), "\(output)")
        #expect(lines.contains("failed  folder: is a directory"), "\(output)")
        #expect(!output.contains("select the files inside"), "\(output)")
        let summary = try #require(lines.last)
        #expect(summary.hasPrefix("1 succeeded, 2 failed, 0 cancelled; "), "\(summary)")
        // Tenths of a second under 10 s; under one second the rate of a few bytes means nothing.
        let seconds = try #require(summary.firstMatch(of: #/ in (\d+\.\d)s/#), "\(summary)").1
        if let value = Double(seconds), value < 1 {
            #expect(!summary.contains("/s"), "\(summary)")
        }
    }
}
