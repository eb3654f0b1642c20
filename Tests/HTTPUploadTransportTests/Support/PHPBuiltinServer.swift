import Foundation
import TestSupport
import Glibc

/// PHP's built-in web server (`php -S`, from Debian's `php-cli`; no one here wrote it) on
/// 127.0.0.1 with four workers and a router that appends every uploaded file's name to a log.
/// It answers every request with `Connection: close`.
final class PHPBuiltinServer {
    /// Where `php` is, if it is installed.
    static let executable: String? = ["/usr/bin/php", "/usr/local/bin/php"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The URL to upload to.
    let url: String
    private let process: Process
    private let directory: TemporaryDirectory
    private let logPath: String

    /// Starts the server and waits until it accepts connections.
    init() throws {
        guard let php = Self.executable else { throw TestFailure("php is not installed (Debian: php-cli)") }
        directory = TemporaryDirectory()
        logPath = directory.path("arrivals.log")
        let router = directory.path("router.php")
        try """
        <?php
        if ($_SERVER['REQUEST_METHOD'] !== 'POST') { echo "ferry test receiver\\n"; return true; }
        foreach ($_FILES as $file) {
            foreach ((array)$file['name'] as $index => $name) {
                $error = is_array($file['error']) ? $file['error'][$index] : $file['error'];
                file_put_contents(getenv('FERRY_ARRIVALS'), $name . ' ' . $error . "\\n", FILE_APPEND | LOCK_EX);
            }
        }
        header('Content-Type: application/json');
        echo json_encode(['stored' => count($_FILES)]);
        """.write(toFile: router, atomically: true, encoding: .utf8)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try FreePort.find()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: php)
            process.arguments = ["-S", "127.0.0.1:\(port)", router]
            var environment = ProcessInfo.processInfo.environment
            environment["PHP_CLI_SERVER_WORKERS"] = "4"
            environment["FERRY_ARRIVALS"] = logPath
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if FreePort.waitUntilListening(port: port, pid: process.processIdentifier, while: { process.isRunning }) {
                self.process = process
                self.url = "http://127.0.0.1:\(port)/upload"
                return
            }
            Self.kill(process)
            lastError = TestFailure("php -S did not start on port \(port)")
        }
        throw lastError ?? TestFailure("php -S did not start")
    }

    deinit {
        stop()
    }

    /// How many times each file name arrived (with PHP's upload error code 0).
    var arrivals: [String: Int] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[1] == "0" else { continue }
            counts[String(parts[0]), default: 0] += 1
        }
        return counts
    }

    /// Stops the server and its workers.
    func stop() {
        Self.kill(process)
    }

    /// Kills the server and its workers with SIGKILL: a child of the test process inherits its
    /// blocked signals, so PHP never sees a SIGTERM.
    private static func kill(_ process: Process) {
        guard process.isRunning else { return }
        let parent = process.processIdentifier
        for child in ListeningSocketOwner.processTree(of: parent).dropFirst() { Glibc.kill(child, SIGKILL) }
        Glibc.kill(parent, SIGKILL)
        process.waitUntilExit()
    }
}
