import Foundation
import TestSupport

/// The built `ferry` binary run as a child process, with its standard output collected as it
/// arrives.
final class FerryProcess: Sendable {
    private let process: Process
    private let output = LockedData()
    private let errors = LockedData()

    /// The child's process ID.
    var processID: Int32 { process.processIdentifier }

    /// Starts `ferry ARGUMENTS RAW-ARGUMENTS` with `XDG_STATE_HOME` set to `stateHome` and the
    /// variables of `environment` over the test's own, as an ordinary user when the tests run as
    /// root (``Unprivileged``).
    ///
    /// `rawArguments` are byte strings (not necessarily UTF-8, which `Process` cannot pass):
    /// `/bin/sh` rebuilds each one with `printf` and execs the binary with them last.
    ///
    /// - Parameters:
    ///   - closingOutput: Whether to close the reading end of standard output's pipe at once, as
    ///     `ferry send | head -0` would: the child's writes then fail with `EPIPE`.
    ///   - currentDirectory: The folder it runs in; nil for the test's own.
    init(_ arguments: [String], rawArguments: [[UInt8]] = [], stateHome: String, closingOutput: Bool = false,
         environment overrides: [String: String] = [:], currentDirectory: String? = nil) throws {
        process = Process()
        if let currentDirectory {
            Unprivileged.handOver(foldersIn: [currentDirectory])
            process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory, isDirectory: true)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = stateHome
        environment.merge(overrides) { _, override in override }
        process.environment = environment
        var command = try FerryBinary.commandLine(arguments, environment: overrides.merging(["XDG_STATE_HOME": stateHome]) { $1 })
        if !rawArguments.isEmpty {
            Unprivileged.handOver(foldersIn: rawArguments.map { String(decoding: $0, as: UTF8.self) })
            let rebuilt = rawArguments.map { bytes in
                "\"$(printf '" + bytes.map { "\\" + String($0, radix: 8) }.joined() + "')\""
            }
            let binary = try FerryBinary.requirePath()
            let ferry = command.firstIndex(of: binary)!
            command[ferry...ferry] = ["/bin/sh", "-c", "exec \"$0\" \"$@\" " + rebuilt.joined(separator: " "), binary]
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if closingOutput {
            try out.fileHandleForReading.close()
        } else {
            Self.drain(out.fileHandleForReading.fileDescriptor, into: output)
        }
        Self.drain(err.fileHandleForReading.fileDescriptor, into: errors)
    }

    /// Reads a pipe until end of file on a thread of its own (`read(2)`, retrying on EINTR).
    private static func drain(_ descriptor: Int32, into collected: LockedData) {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    collected.append(Data(buffer[0..<count]))
                } else if count == 0 || errno != EINTR {
                    return
                }
            }
        }
    }

    /// Standard output so far, as lines (without their line ends; CRLF counts as a line end).
    var outputLines: [String] {
        let bytes = Array(output.value)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Standard error so far.
    var errorText: String { String(decoding: errors.value, as: UTF8.self) }

    /// The JSON objects printed so far (for `--json`).
    var jsonEvents: [[String: Any]] {
        outputLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits (up to `timeout`) until `condition` holds for the process's output.
    func wait(upTo timeout: Duration, until condition: (FerryProcess) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }

    /// Sends a signal.
    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits (up to `timeout`) for the process to exit and returns its status; kills it if it
    /// does not exit in time.
    func exitStatus(within timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return -1
        }
        try await Task.sleep(for: .milliseconds(50))
        return process.terminationStatus
    }
}
