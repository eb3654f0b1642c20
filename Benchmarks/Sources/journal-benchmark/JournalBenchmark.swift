import Dispatch
import Foundation
import Multipart
import UploadModel
import UploadProtocols
import UploadEngine
import UploadJournal

/// The journal figure: queueing 10,000 jobs and recording their state changes (goal: under 2 s
/// in all). Prints the journal alone (one insert transaction, then 20,000 state changes in
/// batches of 8, as the manager's journal writer records them at concurrency 8), and the whole
/// manager with the journal on and a transport that answers 201 at once.
@main
struct JournalBenchmark {
    static let jobCount = 10_000

    /// A transport that answers every request with 201 on another thread, without sending it.
    struct InstantTransport: UploadTransport {
        struct Task: TransportTask {
            var bytesWritten: Int64 { 0 }
            func cancel() {}
        }

        func start(_ request: UploadRequest, bodyCompleting: @escaping @Sendable () -> Bool,
                   completion: @escaping @Sendable (Result<UploadResponse, UploadError>) -> Void) -> any TransportTask {
            DispatchQueue.global().async {
                guard bodyCompleting() else { return completion(.failure(.transferFailed(reason: .other(message: "held back")))) }
                completion(.success(UploadResponse(status: 201)))
            }
            return Task()
        }
    }

    static func main() async throws {
        let directory = NSTemporaryDirectory() + "ferry-journal-benchmark-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let payload = directory + "/payload.bin"
        _ = FileManager.default.createFile(atPath: payload, contents: Data(repeating: 0x61, count: 4096))
        let specs = (0..<jobCount).map { index in
            UploadJobSpec(url: "http://127.0.0.1:8080/upload", headers: [HeaderField(name: "Authorization", value: "Bearer t\(index)")],
                          textFields: [FormTextField(name: "index", value: "\(index)")], files: [QueuedFile.capture(path: payload)])
        }

        let journal = try UploadJournal(path: directory + "/alone.sqlite")
        let clock = ContinuousClock()
        var jobs: [UploadJob] = []
        let insert = try clock.measure { jobs = try journal.insert(specs) }
        let updates = try clock.measure {
            for start in stride(from: 0, to: jobs.count, by: 8) {
                for state in [UploadJobState.uploading, .succeeded] {
                    try journal.apply(jobs[start..<min(start + 8, jobs.count)].map { job in
                        .update(UploadJob(id: job.id, spec: job.spec, state: state, attempts: 1), includingSpec: false)
                    })
                }
            }
        }
        print(String(format: "journal alone: insert 10,000 jobs %.3f s + 20,000 state changes %.3f s = %.3f s (goal < 2 s)",
                     insert.seconds, updates.seconds, (insert + updates).seconds))

        let managed = try UploadJournal(path: directory + "/manager.sqlite")
        let manager = UploadManager(configuration: .init(concurrencyLimit: 8), transport: InstantTransport(), journal: managed)
        let start = clock.now
        try manager.enqueue(specs)
        let queued = clock.now - start
        let summary = await manager.waitUntilIdle()
        manager.flushJournal()
        let total = clock.now - start
        print(String(format: "manager + journal: enqueue 10,000 jobs %.3f s; all %d uploaded (instant transport) and recorded %.3f s",
                     queued.seconds, summary.succeeded, total.seconds))
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
