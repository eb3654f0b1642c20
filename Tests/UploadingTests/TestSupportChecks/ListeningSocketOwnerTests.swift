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
        listener.arguments = ["-c", "import socket, sys, time\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\nprint(s.getsockname()[1], flush=True)\ntime.sleep(30)"]
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
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(ListeningSocketOwner.listens(pid: listener.processIdentifier, port: port))
        #expect(!ListeningSocketOwner.listens(pid: other.processIdentifier, port: port), "another process answers nothing there")
        #expect(!ListeningSocketOwner.listens(pid: listener.processIdentifier, port: refusing.port),
                "a port bound and not listening is no one's listener")
    }
}
