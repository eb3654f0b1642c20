import Foundation
import TestSupport
import Testing
import Glibc

/// `ferry send` (the built binary, as uid 65534) to a receiver on 127.0.0.1: under a system
/// default that paces (BBR), its connection sends under CUBIC or Reno, as `ss` reports the socket;
/// under any other default it keeps the system's.
@Suite("ferry send's connection to this machine: no pacing (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct LoopbackCongestionCommandTests {
    /// `ss`'s line for each established connection to `port` (`-O`: one line each, with its
    /// congestion control), run on a thread of its own (`CompletedProcess`).
    private static func connections(to port: Int) async throws -> [String] {
        let ss = try await CompletedProcess.run(["/bin/sh", "-c", "ss -tinHO state established dst 127.0.0.1:\(port)"])
        return String(decoding: ss.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("mid-body, the upload's socket under a pacing default says cubic or reno; under another default, that default")
    func notPacedOnLoopback() async throws {
        // Never accepting: the kernel takes bytes until its buffers are full, so ferry stays mid-body.
        let listener = try RefusingPort()
        defer { withExtendedLifetime(listener) {} }
        try listener.listenWithoutAccepting()
        let port = listener.port
        let dir = TemporaryDirectory()
        let file = dir.file("big.bin", bytes: 64 << 20)
        let send = try FerryProcess(["send", "--retry", "0", "--url", "http://127.0.0.1:\(port)/upload", file],
                                    stateHome: dir.path("state"))
        var lines: [String] = []
        for _ in 0..<100 where lines.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            lines = try await Self.connections(to: port)
        }
        send.signal(SIGKILL)
        _ = try await send.exitStatus()
        let line = try #require(lines.first, "ferry connected to 127.0.0.1:\(port)")
        #expect(lines.count == 1, "\(lines)")
        let words = Set(line.split(separator: " ").map(String.init))
        let systemDefault = (try String(contentsOfFile: "/proc/sys/net/ipv4/tcp_congestion_control", encoding: .utf8))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if systemDefault.hasPrefix("bbr") {
            #expect(words.contains("cubic") || words.contains("reno"), "\(line)")
            #expect(!words.contains(systemDefault), "\(line)")
        } else {
            #expect(words.contains(systemDefault), "the system's \(systemDefault) kept: \(line)")
        }
    }
}
