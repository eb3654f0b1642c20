import Foundation
import Glibc

/// A misbehaving server as a short Python 3 script (its `socket` and `ssl` modules, which no one
/// here wrote), started by a test on a free port of 127.0.0.1: a reply that is not HTTP, headers
/// over the limit, a body that never ends, a TLS close without `close_notify`, a TLS server
/// that requires a client certificate, an endpoint that asks for a pause
/// (`Tests/Interop/retry_after_server.py`). The script prints `PORT n` once it listens, and a line
/// for each event the test waits for (`closed` when the client closed the connection).
public final class PythonScriptServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let directory: TemporaryDirectory
    private let process: Process
    private let output: LockedData

    /// Starts `python3` with `script` (which **must** print `PORT <n>` and flush once it listens).
    ///
    /// - Parameters:
    ///   - script: The program.
    ///   - arguments: Its arguments (`sys.argv[1...]`).
    public init(script: String, arguments: [String] = []) throws {
        let directory = TemporaryDirectory()
        let path = directory.path("server.py")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = LockedData()
        let descriptor = out.fileHandleForReading.fileDescriptor
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.append(Data(buffer[0..<count]))
                } else if count == 0 || errno != EINTR {
                    return
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        var port: Int?
        while port == nil, ContinuousClock.now < deadline, process.isRunning {
            port = Self.lines(output).lazy.compactMap { $0.hasPrefix("PORT ") ? Int($0.dropFirst(5)) : nil }.first
            if port == nil { usleep(10_000) }
        }
        guard let port else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw TestFailure("the Python server did not start")
        }
        self.process = process
        self.output = output
        self.port = port
        self.directory = directory
    }

    /// Starts a script as ``init(script:arguments:)`` does, on a thread of its own: a server that
    /// takes a second to import (FastAPI, moto) keeps no runner thread waiting.
    public static func start(script: String, arguments: [String] = []) async throws -> PythonScriptServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try PythonScriptServer(script: script, arguments: arguments) })
            }
        }
    }

    deinit {
        stop()
    }

    /// The lines the script printed so far.
    public var lines: [String] { Self.lines(output) }

    /// Waits (up to `timeout`) until the script printed `line`.
    public func wait(for line: String, upTo timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if lines.contains(line) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return lines.contains(line)
    }

    /// The lines printed once at least `count` of them pass `isIncluded` (a line printed as an
    /// answer goes out reaches this process a moment later), or after `timeout`.
    public func lines(atLeast count: Int, where isIncluded: (String) -> Bool,
                      upTo timeout: Duration = .seconds(10)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        var matching = lines.filter(isIncluded)
        while matching.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            matching = lines.filter(isIncluded)
        }
        return matching
    }

    /// Stops the script.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func lines(_ data: LockedData) -> [String] {
        String(decoding: data.value, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
