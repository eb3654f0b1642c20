import Foundation
import Synchronization
import TestSupport
import Glibc

/// `ferry serve` started as users start it: as uid 65534 when the tests run as root
/// (`setpriv`), optionally under a small file-descriptor limit (`prlimit --nofile=N:N`, soft
/// and hard, so the server cannot raise it), saving into a directory that uid may write.
final class UnprivilegedServe: Sendable {
    private let process: Process
    private let output = LockedData()
    private let errors = LockedData()
    /// The directory made for it (world-writable), removed by ``stop()``.
    let root: String

    /// The URL it listens on (the upload URL it printed first, without `/upload`), or "".
    var baseURL: String {
        let upload = lines.first ?? ""
        return upload.hasSuffix("/upload") ? String(upload.dropLast("/upload".count)) : upload
    }

    /// Its standard output so far, in complete lines.
    var lines: [String] {
        var lines = String(decoding: output.value, as: UTF8.self).components(separatedBy: "\n")
        lines.removeLast()
        return lines
    }

    /// Its standard error so far.
    var errorText: String { String(decoding: errors.value, as: UTF8.self) }

    /// The run's JSON log lines.
    var logLines: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Starts `ferry serve --port 0 --dir ROOT/uploads <arguments>`.
    ///
    /// - Parameters:
    ///   - arguments: More `serve` arguments.
    ///   - environment: Variables added to the test's environment.
    ///   - descriptorLimit: A soft and hard `RLIMIT_NOFILE` for the server, if any.
    init(_ arguments: [String], environment: [String: String] = [:], descriptorLimit: Int? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chmod(root, 0o777)
        var command = descriptorLimit.map { ["/usr/bin/prlimit", "--nofile=\($0):\($0)", "--"] } ?? []
        command += Unprivileged.command([try FerryBinary.requirePath(), "serve", "--port", "0", "--dir", root + "/uploads"] + arguments)
        process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for (handle, sink) in [(outputPipe.fileHandleForReading, output), (errorPipe.fileHandleForReading, errors)] {
            Thread.detachNewThread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    sink.append(data)
                }
                sink.finish()
            }
        }
    }

    /// Waits until it printed its URL or ended.
    ///
    /// - Parameter timeout: Seconds to wait.
    /// - Returns: The URL, or `nil` when it ended or printed none in time.
    func waitForURL(timeout: Double = 60) async -> String? {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if !baseURL.isEmpty { return baseURL }
            if !process.isRunning && output.isFinished { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits for it to end by itself.
    ///
    /// - Parameter timeout: Seconds to wait.
    /// - Returns: Its exit status, or `nil` when it is still running.
    func waitForExit(timeout: Double = 20) async -> Int32? {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else { return nil }
        while !errors.isFinished { try? await Task.sleep(for: .milliseconds(10)) }
        return process.terminationStatus
    }

    /// Stops it (SIGTERM to the whole chain; `setpriv` and `prlimit` exec, so the pid is the
    /// server's), then removes its directory.
    func stop() async {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            if await waitForExit(timeout: 10) == nil {
                kill(process.processIdentifier, SIGKILL)
                _ = await waitForExit(timeout: 10)
            }
        }
        try? FileManager.default.removeItem(atPath: root)
    }
}
