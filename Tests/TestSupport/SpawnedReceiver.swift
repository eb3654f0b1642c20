import Foundation

/// A `ferry serve` child process of the built binary, for what only a real process shows: the
/// URL it prints first, the JSON request log on standard output, its peak memory, the files it
/// saved.
public final class SpawnedReceiver: Sendable {
    private let process: Process
    private let output = LockedData()
    /// The directory it saves into, when ``start(_:timeout:)`` made one (removed with the receiver).
    public let uploads: TemporaryDirectory?

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Starts `ferry serve <arguments>`.
    ///
    /// - Parameter arguments: Arguments after `serve`.
    /// - Throws: ``TestFailure`` when the binary is missing (build it first or set `FERRY_BINARY`).
    public convenience init(arguments: [String]) throws {
        try self.init(arguments: arguments, uploads: nil)
    }

    private init(arguments: [String], uploads: TemporaryDirectory?) throws {
        self.uploads = uploads
        process = Process()
        try FerryBinary.prepare(process, arguments: ["serve"] + arguments)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [output] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.append(data)
            }
            output.finish()
        }
    }

    /// Starts `ferry serve --port 0 --dir <directory> <arguments>` and waits until it prints its
    /// URL, without holding a thread of the concurrency pool while it waits (on 2 cores the pool
    /// has 2, and every other test runs on them).
    ///
    /// - Parameters:
    ///   - arguments: More `serve` arguments (`--fail-first 1`, ...).
    ///   - directory: The upload directory (an earlier receiver's ``uploads``), else a new one.
    ///   - timeout: Seconds to wait for the URL.
    /// - Returns: The running receiver.
    /// - Throws: ``TestFailure`` when the binary is missing or prints no URL in time.
    public static func start(_ arguments: [String] = [], in directory: TemporaryDirectory? = nil, timeout: Double = 20) async throws
        -> SpawnedReceiver
    {
        let uploads = directory ?? TemporaryDirectory()
        let receiver = try SpawnedReceiver(arguments: ["--port", "0", "--dir", uploads.path] + arguments, uploads: uploads)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while receiver.lines.isEmpty, !receiver.output.isFinished, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !receiver.baseURL.isEmpty else {
            receiver.terminate()
            throw TestFailure("ferry serve printed no URL within \(Int(timeout)) s")
        }
        return receiver
    }

    /// The names saved in ``uploads`` (not the receiver's hidden staging folders: no upload's
    /// name starts with a dot), sorted; none when it has no directory of its own.
    public func savedNames() throws -> [String] {
        guard let uploads else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: uploads.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The upload URL (its first line, `http://HOST:PORT/upload`), or "" before it printed it.
    public var uploadURL: String {
        lines.first?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    /// The URL it listens on: ``uploadURL`` without `/upload`, or "" before it printed it.
    public var baseURL: String {
        let upload = uploadURL
        return upload.hasSuffix("/upload") ? String(upload.dropLast("/upload".count)) : upload
    }

    /// Everything written to standard output so far, split into lines (the last one complete).
    public var lines: [String] {
        let text = String(decoding: output.value, as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()  // after the final newline, or an incomplete line
        return lines
    }

    /// The JSON lines logged so far, one per request (the URL line is not one).
    public var logLines: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The JSON lines logged once there are at least `count` (the receiver logs a request as its
    /// answer goes out, and its output reaches this process a moment later), or after `limit`.
    ///
    /// - Parameters:
    ///   - count: How many lines to wait for.
    ///   - limit: How long to wait at most.
    /// - Returns: The lines logged by then.
    public func logLines(atLeast count: Int, within limit: Duration = .seconds(10)) async -> [[String: Any]] {
        let deadline = ContinuousClock.now + limit
        var logged = logLines
        while logged.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            logged = logLines
        }
        return logged
    }

    /// The contents of every file saved in ``uploads``.
    ///
    /// - Returns: The contents, in no particular order.
    public func savedContents() -> [Data] {
        uploads?.fileContents() ?? []
    }

    /// How many files it has saved in ``uploads`` so far.
    public var uploadCount: Int {
        savedContents().count
    }

    /// Waits for standard output to have at least `count` complete lines.
    ///
    /// - Parameters:
    ///   - count: How many lines.
    ///   - timeout: Seconds to wait.
    /// - Returns: The lines (fewer than `count` after a timeout).
    public func waitForLines(_ count: Int, timeout: Double = 20) async -> [String] {
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
    /// - Throws: ``TestFailure`` when the field is missing.
    public func memoryKiB(_ key: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            let digits = line.dropFirst(key.count + 1).filter(\.isNumber)
            if let value = Int(digits) { return value }
        }
        throw TestFailure("/proc/\(pid)/status has no \(key)")
    }

    /// Sends SIGTERM and waits for the process to exit (SIGKILL after `timeout` seconds),
    /// without blocking a thread: for async tests.
    ///
    /// - Parameter timeout: Seconds to wait for a clean exit.
    /// - Returns: The exit status, or `nil` when it had to be killed.
    @discardableResult
    public func stop(timeout: Double = 10) async -> Int32? {
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

    /// Sends SIGKILL — no clean-up, as a crash or `kill -9` — and waits for the process to exit,
    /// without blocking a thread.
    public func killAbruptly() async {
        guard process.isRunning else { return }
        kill(pid, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    /// Sends SIGTERM and blocks until the process exits: for tests that are not async.
    public func terminate() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
