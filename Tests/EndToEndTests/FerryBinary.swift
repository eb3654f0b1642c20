import Foundation

/// Where the built `ferry` binary is: `FERRY_BINARY`, or `.build/debug/ferry` in the package.
enum FerryBinary {
    /// The binary's path, or `nil` when it is missing.
    static var path: String? {
        let candidate = ProcessInfo.processInfo.environment["FERRY_BINARY"] ?? packageRoot + "/.build/debug/ferry"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// What to say when the binary is missing.
    static var missingMessage: String {
        "the ferry binary is missing: build it first (`swift build`) or set FERRY_BINARY; looked at "
            + (ProcessInfo.processInfo.environment["FERRY_BINARY"] ?? packageRoot + "/.build/debug/ferry")
    }

    /// The package root: three levels up from this file (Tests/EndToEndTests/FerryBinary.swift).
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
