import Foundation

/// Where the built `ferry` binary is: `$FERRY_BINARY`, else beside the test binary in the build
/// folder (``buildDirectory``).
public enum FerryBinary {
    /// The binary's path (it may not exist yet; see ``requirePath()``).
    public static var path: String {
        if let path = ProcessInfo.processInfo.environment["FERRY_BINARY"], !path.isEmpty { return path }
        return buildDirectory + "/ferry"
    }

    /// The folder the running test binary was built in, by its real path
    /// (`.build/<triple>/debug`), where the package's executables are built beside it. Not through
    /// `.build/debug`: SwiftPM replaces that symbolic link at every build — the install test's and
    /// the man page plugin's, while other tests run — and a path through it is missing meanwhile.
    public static let buildDirectory: String = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().path
    }()

    /// Whether the binary is the release build users install (`FERRY_BINARY_RELEASE=1`, which
    /// scripts/test.sh sets for its second pass, against the binary `scripts/release-flags.sh` links).
    public static var isRelease: Bool {
        ProcessInfo.processInfo.environment["FERRY_BINARY_RELEASE"] == "1"
    }

    /// The binary's path when it is built, as the user the tests run it as can reach it
    /// (``Unprivileged/reachable(_:)``: a copy when the build folder is closed to that user).
    ///
    /// - Returns: The path.
    /// - Throws: ``TestFailure`` saying how to build it when it is missing.
    public static func requirePath() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestFailure("the ferry binary is missing at \(path): run `swift build` first, or set FERRY_BINARY")
        }
        return try Unprivileged.reachable(path)
    }

    /// The command line that runs the binary with `arguments` as the user tests run it as: an
    /// ordinary user when the tests run as root (see ``Unprivileged``), after handing that user
    /// the test folders named in `arguments` and in `environment`'s values.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the binary.
    ///   - environment: The variables the process gets (their values may name test folders).
    /// - Returns: The program and its arguments.
    /// - Throws: ``TestFailure`` when the binary is missing.
    public static func commandLine(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
        let binary = try requirePath()
        Unprivileged.handOver(foldersIn: arguments + Array(environment.values))
        return Unprivileged.command([binary] + arguments)
    }

    /// Sets `process` to run the binary with `arguments` as ``commandLine(_:environment:)`` says;
    /// set its `environment` first, so the folders it names are handed over too.
    ///
    /// - Parameters:
    ///   - process: The process, not yet running.
    ///   - arguments: The arguments after the binary.
    /// - Throws: ``TestFailure`` when the binary is missing.
    public static func prepare(_ process: Process, arguments: [String]) throws {
        let command = try commandLine(arguments, environment: process.environment ?? [:])
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
    }

    /// The package root: three levels up from this file (Tests/TestSupport/FerryBinary.swift).
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
