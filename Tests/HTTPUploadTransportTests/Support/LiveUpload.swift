import Foundation
import HTTPUploadTransport
import Multipart
import Receiver
import Synchronization
import TestSupport
import UploadModel
import UploadEngine

/// A real receiver on 127.0.0.1 (free port) with the real HTTP transport and manager,
/// started and stopped by each integration test.
struct LiveUpload {
    /// Request logs as the receiver reports them, with the time each ended.
    final class RequestLogBook: Sendable {
        private let entries = Mutex<[(log: RequestLog, endedAt: DispatchTime)]>([])

        func record(_ log: RequestLog) {
            entries.withLock { $0.append((log, .now())) }
        }

        var logs: [RequestLog] { entries.withLock { $0.map(\.log) } }

        /// The largest number of requests whose [start, end] intervals overlap.
        var maximumOverlap: Int {
            let intervals = entries.withLock { entries in
                entries.map { entry -> (Double, Double) in
                    let end = Double(entry.endedAt.uptimeNanoseconds) / 1e6
                    return (end - entry.log.durationMs, end)
                }
            }
            var points: [(time: Double, delta: Int)] = []
            for (start, end) in intervals {
                points.append((start, 1))
                points.append((end, -1))
            }
            points.sort { left, right in left.time == right.time ? left.delta < right.delta : left.time < right.time }
            var current = 0, peak = 0
            for (_, delta) in points {
                current += delta
                peak = max(peak, current)
            }
            return peak
        }
    }

    /// Runs `body` with a receiver (with `faults`), a manager on the real transport, and a log book.
    static func run<T>(
        faults: FaultPlan = .none,
        concurrency: Int = 4,
        retries: Int = 0,
        idleTimeout: Duration = .seconds(30),
        _ body: (_ url: String, _ manager: UploadManager, _ server: ReceiverServer, _ book: RequestLogBook) async throws -> T
    ) async throws -> T {
        let uploads = TemporaryDirectory()
        let book = RequestLogBook()
        let configuration = ReceiverConfiguration(port: 0, directory: uploads.path, faults: faults,
                                                  onRequestLogged: { book.record($0) })
        return try await withRunningReceiver(configuration) { server in
            let transport = HTTPTransport()
            let manager = UploadManager(
                configuration: .init(
                    concurrencyLimit: concurrency,
                    retryPolicy: RetryPolicy(maximumRetries: retries, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(100)),
                    idleTimeout: idleTimeout
                ),
                transport: transport
            )
            do {
                let result = try await body(server.baseURL + "/upload", manager, server, book)
                manager.stop()
                try await transport.shutdown()
                return result
            } catch {
                manager.stop()
                try? await transport.shutdown()
                throw error
            }
        }
    }

    /// The hex SHA-256 of a file, computed with the system's `sha256sum` (a tool no one here wrote).
    static func sha256(of path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(output.prefix(64))
    }
}
