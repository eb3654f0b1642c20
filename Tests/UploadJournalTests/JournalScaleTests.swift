import Foundation
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// The journal and the manager at the scale of the figure (10,000 jobs): every row and
/// state change lands. The time it takes is measured by `Benchmarks/run.sh journal`, not here.
@Suite("Journal at scale", .serialized)
struct JournalScaleTests {
    static let jobCount = 10_000

    static func specs(path: String) -> [UploadJobSpec] {
        let file = QueuedFile.capture(path: path)
        return (0..<jobCount).map { index in
            UploadJobSpec(
                url: "http://127.0.0.1:8080/upload",
                headers: [.init(name: "Authorization", value: "Bearer token-\(index)")],
                textFields: [FormTextField(name: "index", value: "\(index)")],
                files: [file]
            )
        }
    }

    @Test("10,000 jobs: insert in one transaction, then two state changes each (one UPDATE per change)")
    func journalAlone() throws {
        let directory = TemporaryDirectory()
        // The interface's journal: it keeps succeeded rows, so every change is an UPDATE.
        let journal = try UploadJournal(path: directory.path("journal.sqlite"), client: .interface)
        let specs = Self.specs(path: directory.file("payload.bin", bytes: 4096))
        let jobs = try journal.insert(specs)
        #expect(jobs.count == Self.jobCount)
        #expect(Set(jobs.map(\.id)).count == Self.jobCount)
        // As the manager records them: uploading, then succeeded, in batches of whatever
        // accumulated (here 8 at a time, the concurrency of the figure in the issue).
        do {
            for start in stride(from: 0, to: jobs.count, by: 8) {
                var batch: [JournalChange] = []
                for index in start..<min(start + 8, jobs.count) {
                    var job = jobs[index]
                    job.state = .uploading
                    job.attempts = 1
                    batch.append(.update(job, includingSpec: false))
                }
                try journal.apply(batch)
                batch = []
                for index in start..<min(start + 8, jobs.count) {
                    var job = jobs[index]
                    job.state = .succeeded
                    job.attempts = 1
                    job.response = UploadResponse(status: 201, headers: [.init(name: "Content-Type", value: "application/json")], body: Array("{\"ok\":true}".utf8))
                    batch.append(.update(job, includingSpec: false))
                }
                try journal.apply(batch)
            }
        }
        // Every change in its own transaction, as a slow stream of events records them.
        do {
            for job in jobs.prefix(2000) {
                var changed = job
                changed.state = .failed
                try journal.apply([.update(changed, includingSpec: false)])
            }
        }
        #expect(try journal.allJobs().filter { $0.state == .succeeded }.count == Self.jobCount - 2000)
    }

    @Test("10,000 jobs through the manager with the journal on: queue, upload (fake), record, flush")
    func throughManager() async throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("journal.sqlite"))
        let specs = Self.specs(path: directory.file("payload.bin", bytes: 4096))
        let transport = FakeTransport { _, _ in .respond(status: 201) }
        let manager = UploadManager(configuration: .init(concurrencyLimit: 8), transport: transport, journal: journal)
        try manager.enqueue(specs)
        let summary = await manager.waitUntilIdle()
        manager.flushJournal()
        #expect(summary.succeeded == Self.jobCount)
        #expect(transport.maxInFlight == 8)
        #expect(try journal.allJobs().allSatisfy { $0.state == .succeeded && $0.attempts == 1 })
    }
}
