import Foundation

/// A `ferry serve` child process of the built binary, for what only a real process shows:
/// the first output line, the JSON request log on standard output, and its peak memory.
final class SpawnedReceiver: Sendable {
    /// The binary to run: `$FERRY_BINARY`, else `<package root>/.build/debug/ferry`.
    static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["FERRY_BINARY"], !path.isEmpty {
            return path
        }
        // <root>/Tests/ReceiverTests/SpawnedReceiver.swift → <root>
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/ferry").path
    }

    private let process: Process
    private let output = DataBox()

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts `ferry serve <arguments>`.
    ///
    /// - Parameter arguments: Arguments after `serve`.
    /// - Throws: ``TestFailure`` when the binary is missing (build it first or set `FERRY_BINARY`).
    init(arguments: [String]) throws {
        let binary = Self.binaryPath
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw TestFailure(
                "The ferry binary is missing at \(binary): run `swift build` first, or set FERRY_BINARY to the built binary.")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        onNewThread { [output] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.append(data)
            }
            output.finish()
        }
    }

    /// Everything written to standard output so far, split into lines (the last one complete).
    var lines: [String] {
        let text = String(decoding: output.get(), as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()  // after the final newline, or an incomplete line
        return lines
    }

    /// Waits for standard output to have at least `count` complete lines.
    ///
    /// - Parameters:
    ///   - count: How many lines.
    ///   - timeout: Seconds to wait.
    /// - Returns: The lines (fewer than `count` after a timeout).
    func waitForLines(_ count: Int, timeout: Double = 20) async -> [String] {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let current = lines
            if current.count >= count { return current }
            if output.isFinished { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return lines
    }

    /// A line of `/proc/PID/status`, such as `VmHWM`, in KiB.
    ///
    /// - Parameter key: The field name.
    /// - Returns: The value in KiB.
    func memoryKiB(_ key: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            let digits = line.dropFirst(key.count + 1).filter(\.isNumber)
            if let value = Int(digits) { return value }
        }
        throw TestFailure("/proc/\(pid)/status has no \(key)")
    }

    /// Sends SIGTERM and waits for the process to exit (SIGKILL after `timeout` seconds).
    ///
    /// - Parameter timeout: Seconds to wait for a clean exit.
    /// - Returns: The exit status, or `nil` when it had to be killed.
    @discardableResult
    func stop(timeout: Double = 10) async -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            kill(pid, SIGKILL)
            while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
