import Foundation
import TestSupport

/// A child process run to its end on a thread of its own (no runner thread waits for it), with
/// what it wrote.
struct CompletedProcess {
    /// The exit status.
    var status: Int32
    /// Standard output.
    var output: Data
    /// Standard error, as text.
    var errors: String

    /// Runs a command to its end.
    ///
    /// - Parameters:
    ///   - command: The program's path and its arguments.
    ///   - input: A file to read standard input from; nil for none.
    /// - Returns: Its status and output.
    static func run(_ command: [String], input: String? = nil) async throws -> CompletedProcess {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: command[0])
                    process.arguments = Array(command.dropFirst())
                    let out = Pipe(), err = Pipe()
                    process.standardOutput = out
                    process.standardError = err
                    process.standardInput = input.flatMap(FileHandle.init(forReadingAtPath:)) ?? FileHandle.nullDevice
                    try process.run()
                    let errors = LockedData()
                    let drained = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        errors.append(err.fileHandleForReading.readDataToEndOfFile())
                        drained.signal()
                    }
                    let output = out.fileHandleForReading.readDataToEndOfFile()
                    drained.wait()
                    process.waitUntilExit()
                    return CompletedProcess(status: process.terminationStatus, output: output,
                                            errors: String(decoding: errors.value, as: UTF8.self))
                })
            }
        }
    }
}
