import Foundation
import Receiver
import TestSupport

/// An in-process receiver on 127.0.0.1 with a free port, a temporary directory and a log
/// collector, always stopped and cleaned up after the test body.
struct ReceiverHarness: Sendable {
    /// The running server.
    let server: ReceiverServer
    /// The temporary directories (`uploads/` is the server's directory).
    let directory: TestDirectory
    /// The server's request log.
    let logs: LogCollector

    /// The server's base URL.
    var url: String { server.baseURL }

    /// Runs `body` against a fresh receiver.
    ///
    /// - Parameters:
    ///   - faults: Faults to inject.
    ///   - configure: Further changes to the configuration.
    ///   - body: The test.
    static func run(
        faults: FaultPlan = .none,
        configure: (inout ReceiverConfiguration) -> Void = { _ in },
        _ body: (ReceiverHarness) async throws -> Void
    ) async throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let logs = LogCollector()
        var configuration = ReceiverConfiguration(
            host: "127.0.0.1",
            port: 0,
            directory: directory.uploads,
            faults: faults,
            logLevel: .critical,
            onRequestLogged: { logs.append($0) }
        )
        configure(&configuration)
        try await withRunningReceiver(configuration) { server in
            try await body(ReceiverHarness(server: server, directory: directory, logs: logs))
        }
    }

    /// Decodes a successful upload answer.
    static func decodeRecord(_ body: String) throws -> UploadRecord {
        try JSONDecoder().decode(UploadRecord.self, from: Data(body.utf8))
    }

    /// Decodes an `{"error": "..."}` answer.
    static func decodeError(_ body: String) throws -> String {
        let object = try JSONDecoder().decode([String: String].self, from: Data(body.utf8))
        guard let message = object["error"] else { throw TestFailure("no error key in \(body)") }
        return message
    }
}
