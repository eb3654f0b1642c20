import Foundation

/// A `ferry serve --port 0` subprocess: its base URL, its upload directory and the JSON lines
/// it logged.
final class ReceiverProcess: Sendable {
    /// The URL it listens on.
    let baseURL: String
    /// Where it saves uploads.
    let directory: URL
    private let process: Process
    private let output = LockedData()

    /// Starts a receiver.
    ///
    /// - Parameters:
    ///   - binary: The ferry binary.
    ///   - arguments: Extra `serve` arguments (`--fail-first 1`, ...).
    init(binary: String, arguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-e2e-uploads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--port", "0", "--dir", directory.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            output.append(handle.availableData)
        }
        let deadline = Date().addingTimeInterval(20)
        var url: String?
        while url == nil && Date() < deadline {
            let text = String(decoding: output.value, as: UTF8.self)
            if let newline = text.firstIndex(of: "\n") { url = String(text[..<newline]) }
            else { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let url else {
            process.terminate()
            throw E2EError("ferry serve printed no URL within 20 s")
        }
        baseURL = url.trimmingCharacters(in: .whitespaces)
    }

    /// The JSON lines logged so far, one per request (after the URL line).
    var logLines: [[String: Any]] {
        let text = String(decoding: output.value, as: UTF8.self)
        return text.split(separator: "\n").dropFirst().compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The contents of every file saved, by content.
    func savedContents() -> [Data] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        var contents: [Data] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
               let data = try? Data(contentsOf: url) {
                contents.append(data)
            }
        }
        return contents
    }

    /// How many files the receiver has saved so far.
    var uploadCount: Int {
        savedContents().count
    }

    /// Stops the receiver and removes its directory.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
