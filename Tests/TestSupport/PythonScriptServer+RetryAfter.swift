import Foundation

extension PythonScriptServer {
    /// Starts `Tests/Interop/retry_after_server.py`: an upload endpoint that answers its first
    /// upload 429 with `Retry-After`, every later one 200, and prints `REQUEST t` and
    /// `ANSWERED STATUS t` (monotonic seconds), so a test can count the requests of a pause.
    ///
    /// - Parameter seconds: The `Retry-After` of the 429.
    /// - Returns: The running server.
    /// - Throws: ``TestFailure`` when it does not start; the script's read error.
    public static func askingForPause(retryAfter seconds: Int) throws -> PythonScriptServer {
        let path = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/retry_after_server.py").path
        return try PythonScriptServer(script: String(contentsOfFile: path, encoding: .utf8), arguments: [String(seconds)])
    }
}
