import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `ferry send` (the built binary, as uid 65534) to a receiver on 127.0.0.1: under a system
/// default that paces (BBR), its connection sends under CUBIC or Reno, as `ss` reports the socket;
/// under any other default it keeps the system's.
@Suite("ferry send's connection to this machine: no pacing (the built binary)", .serialized, .timeLimit(.minutes(2)))
struct LoopbackCongestionCommandTests {
    /// A listening socket on 127.0.0.1 that never accepts: the kernel completes connections and
    /// takes bytes until the buffers are full, so a client stays mid-body.
    private static func silentListener() throws -> (socket: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestFailure("no socket (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw TestFailure("the listener could not bind (errno \(errno))") }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// `ss`'s line for each established connection to `port` (`-O`: one line each, with its
    /// congestion control).
    private static func connections(to port: Int) throws -> [String] {
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/bin/sh")
        ss.arguments = ["-c", "ss -tinHO state established dst 127.0.0.1:\(port)"]
        let pipe = Pipe()
        ss.standardOutput = pipe
        try ss.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ss.waitUntilExit()
        return text.split(separator: "\n").map(String.init)
    }

    @Test("mid-body, the upload's socket under a pacing default says cubic or reno; under another default, that default")
    func notPacedOnLoopback() async throws {
        let (listener, port) = try Self.silentListener()
        defer { close(listener) }
        let dir = TemporaryDirectory()
        let file = dir.file("big.bin", bytes: 64 << 20)
        let send = try FerryProcess(["send", "--retry", "0", "--url", "http://127.0.0.1:\(port)/upload", file],
                                    stateHome: dir.path("state"))
        var lines: [String] = []
        for _ in 0..<100 where lines.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            lines = try Self.connections(to: port)
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
