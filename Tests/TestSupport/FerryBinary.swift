import Foundation

/// Where the built `ferry` binary is: `$FERRY_BINARY`, else `.build/debug/ferry` in the package.
public enum FerryBinary {
    /// The binary's path (it may not exist yet; see ``requirePath()``).
    public static var path: String {
        if let path = ProcessInfo.processInfo.environment["FERRY_BINARY"], !path.isEmpty { return path }
        return packageRoot + "/.build/debug/ferry"
    }

    /// The binary's path when it is built.
    ///
    /// - Returns: The path.
    /// - Throws: ``TestFailure`` saying how to build it when it is missing.
    public static func requirePath() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestFailure("the ferry binary is missing at \(path): run `swift build` first, or set FERRY_BINARY")
        }
        return path
    }

    /// The package root: three levels up from this file (Tests/TestSupport/FerryBinary.swift).
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
