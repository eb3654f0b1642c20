import Foundation
import TestSupport

/// Runs a program to completion off the concurrency pool and captures its output.
enum ChildProcess {
    /// Runs `executable` with `arguments` and waits for it.
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments.
    /// - Returns: Exit code, standard output and standard error (UTF-8, lossy).
    static func run(_ executable: String, _ arguments: [String]) async throws -> (Int32, String, String) {
        try await blocking {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            let errorOutput = Pipe()
            process.standardOutput = output
            process.standardError = errorOutput
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Read standard error on another thread so neither pipe can fill up and block.
            let errorData = LockedData()
            let group = DispatchGroup()
            group.enter()
            onNewThread {
                errorData.set(errorOutput.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            return (
                process.terminationStatus,
                String(decoding: outputData, as: UTF8.self),
                String(decoding: errorData.value, as: UTF8.self)
            )
        }
    }

    /// The SHA-256 of a file as `sha256sum` computes it (an implementation independent of ours).
    ///
    /// - Parameter path: The file.
    /// - Returns: 64 lowercase hex digits.
    static func sha256sum(_ path: String) async throws -> String {
        let (code, output, errorOutput) = try await run("/usr/bin/sha256sum", [path])
        guard code == 0, let hex = output.split(separator: " ").first else {
            throw TestFailure("sha256sum \(path) failed: \(errorOutput)")
        }
        return String(hex)
    }
}
