import Foundation
import TestSupport
import Testing

/// The check test servers' launches rely on: a port is a server's when its own socket listens
/// there, not when something answers on it.
@Suite("ListeningSocketOwner: whose socket listens on a port")
struct ListeningSocketOwnerTests {
    @Test("a process listening on a port owns it; another process, and a port bound without listening, do not")
    func ownerIsTheListener() throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // 300 sockets: /proc/net/tcp runs past its first 4 KiB read (27 sockets), as in a test run.
        listener.arguments = ["-c", """
            import socket, time
            sockets = [socket.socket() for _ in range(300)]
            for s in sockets:
                s.bind(('127.0.0.1', 0))
                s.listen()
            print(' '.join(str(s.getsockname()[1]) for s in sockets), flush=True)
            time.sleep(30)
            """]
        let output = Pipe()
        listener.standardOutput = output
        try listener.run()
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/bin/sleep")
        other.arguments = ["30"]
        try other.run()
        defer {
            // SIGKILL: a child of the test process inherits its blocked signals.
            for process in [listener, other] {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        var line = ""
        while !line.hasSuffix("\n") {
            let data = output.fileHandleForReading.availableData
            try #require(!data.isEmpty, "the listener ended: \(line)")
            line += String(decoding: data, as: UTF8.self)
        }
        let ports = line.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(ports.count == 300, "\(line.prefix(200))")
        // Every tenth: 30 ports, so at least 3 of them lie past the first read's 27 lines.
        let sample = stride(from: 0, to: ports.count, by: 10).map { ports[$0] }
        #expect(sample.filter { !ListeningSocketOwner.listens(pid: listener.processIdentifier, port: $0) }.isEmpty,
                "each, wherever it is in /proc/net/tcp")
        let port = ports[0]
        #expect(!ListeningSocketOwner.listens(pid: other.processIdentifier, port: port), "another process answers nothing there")
        #expect(!ListeningSocketOwner.listens(pid: listener.processIdentifier, port: refusing.port),
                "a port bound and not listening is no one's listener")
    }
}
