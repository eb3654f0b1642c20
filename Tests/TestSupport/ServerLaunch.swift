import Foundation
import Glibc

/// Starts a server program the tests use and waits until it listens.
public enum ServerLaunch {
    /// Runs `executable` with `arguments` (output discarded) and waits up to 5 s until it listens
    /// on `port` (its own socket, not another server's that took the port first).
    ///
    /// - Parameters:
    ///   - executable: The program's path.
    ///   - arguments: Its arguments.
    ///   - port: The port it was told to listen on.
    /// - Returns: The running process, or nil when it did not listen in time; it is then killed
    ///   with SIGKILL (a child of the test process inherits its blocked signals, so a SIGTERM
    ///   could leave it running) and waited for.
    /// - Throws: When the program cannot be started at all.
    public static func start(_ executable: String, arguments: [String], port: Int) throws -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if FreePort.waitUntilListening(port: port, pid: process.processIdentifier, while: { process.isRunning }) { return process }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return nil
    }
}
