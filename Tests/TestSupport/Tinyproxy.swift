import Foundation
import Glibc

/// Debian's `tinyproxy` (no one here wrote it) started by a test in the foreground on a free
/// port of 127.0.0.1, with a configuration of its own: clients from 127.0.0.1 only, `CONNECT`
/// allowed to the ports the test names, Basic credentials when the test gives them, and a log
/// at level `Connect` that records each request line (`CONNECT 127.0.0.1:PORT HTTP/1.1`,
/// `POST http://127.0.0.1:PORT/upload HTTP/1.1`).
package final class Tinyproxy {
    /// Where `tinyproxy` is, if it is installed.
    package static let executable: String? = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The port it listens on.
    package let port: Int
    private let directory = TemporaryDirectory()
    private let process: Process

    /// Starts tinyproxy and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - connectPorts: The ports `CONNECT` may reach (tinyproxy's default is 443 and 563).
    ///   - credentials: A user and password the proxy requires (`BasicAuth`), or nil for none.
    package init(connectPorts: [Int] = [], credentials: (user: String, password: String)? = nil) throws {
        guard let tinyproxy = Self.executable else { throw TestFailure("tinyproxy is not installed (Debian: tinyproxy)") }
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try FreePort.find()
            var lines = [
                "Port \(port)",
                "Listen 127.0.0.1",
                "Timeout 60",
                "LogFile \"\(directory.path("tinyproxy.log"))\"",
                "LogLevel Connect",
                "PidFile \"\(directory.path("tinyproxy.pid"))\"",
                "MaxClients 100",
                "Allow 127.0.0.1",
            ]
            lines += (connectPorts.isEmpty ? [443] : connectPorts).map { "ConnectPort \($0)" }
            if let credentials { lines.append("BasicAuth \(credentials.user) \(credentials.password)") }
            let path = directory.path("tinyproxy.conf")
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            if let process = try ServerLaunch.start(tinyproxy, arguments: ["-d", "-c", path], port: port) {
                self.process = process
                self.port = port
                return
            }
            let log = (try? String(contentsOfFile: directory.path("tinyproxy.log"), encoding: .utf8)) ?? ""
            lastError = TestFailure("tinyproxy did not start on port \(port): \(log.suffix(400))")
        }
        throw lastError ?? TestFailure("tinyproxy did not start")
    }

    deinit {
        stop()
    }

    /// The proxy's URL, `http://[user:password@]127.0.0.1:PORT`.
    ///
    /// - Parameter credentials: A user and password to put in it.
    package func url(credentials: (user: String, password: String)? = nil) -> String {
        let userInfo = credentials.map { "\($0.user):\($0.password)@" } ?? ""
        return "http://\(userInfo)127.0.0.1:\(port)"
    }

    /// The log's lines.
    package var log: [String] {
        let text = (try? String(contentsOfFile: directory.path("tinyproxy.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// The request lines the proxy received, in order: `CONNECT 127.0.0.1:PORT HTTP/1.1`, say.
    package var requests: [String] {
        log.compactMap { line in
            line.range(of: "]: Request (file descriptor ").flatMap { found in
                line[found.upperBound...].split(separator: ":", maxSplits: 1).last.map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
        }
    }

    /// Stops tinyproxy (SIGKILL: a child of the test process inherits its blocked signals).
    package func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
