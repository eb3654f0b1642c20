import Foundation

/// Runs the real curl binary (`/usr/bin/curl`) and captures what it printed.
enum Curl {
    /// What one curl run produced.
    struct Result: Sendable {
        /// curl's exit code (0 on success; 28 timeout; 52, 55, 56 connection trouble).
        let exitCode: Int32
        /// The HTTP status curl saw, or 0 when there was none.
        let status: Int
        /// The response body.
        let body: String
        /// What curl wrote on standard error.
        let errorOutput: String
    }

    /// The curl executable.
    static let path = "/usr/bin/curl"

    /// Runs `curl -sS <arguments>` and returns the status, body and exit code.
    ///
    /// - Parameter arguments: curl arguments (URL included).
    /// - Returns: The result.
    static func run(_ arguments: [String]) async throws -> Result {
        let marker = "\n--ferry-status:"
        let all = ["-sS", "-w", marker + "%{http_code}"] + arguments
        let (exitCode, output, errorOutput) = try await ChildProcess.run(path, all)
        var body = output
        var status = 0
        if let range = output.range(of: marker, options: .backwards) {
            status = Int(output[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            body = String(output[..<range.lowerBound])
        }
        return Result(exitCode: exitCode, status: status, body: body, errorOutput: errorOutput)
    }

    /// Escapes a value for use inside double quotes in a `-F` argument.
    ///
    /// - Parameter value: A filename or value.
    /// - Returns: The value with `\` and `"` backslash-escaped.
    static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A `-F` argument sending the file at `path` under `filename`.
    ///
    /// - Parameters:
    ///   - field: The form field name.
    ///   - path: The file to send.
    ///   - filename: The filename to announce.
    /// - Returns: The `field=@"path";filename="name"` argument.
    static func fileField(_ field: String, path: String, filename: String) -> String {
        "\(field)=@\(quoted(path));filename=\(quoted(filename))"
    }
}
