import Foundation
import Multipart
import Testing
import TestSupport
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

/// The compact representations that keep a long queue small: jobs of a batch share their spec's
/// request fields, a job's outcome takes one pointer until it has one, the job table, and the
/// manager queueing a long batch in slices.
@Suite("Queue memory")
struct QueueMemoryTests {
    static func file(_ name: String) -> QueuedFile {
        QueuedFile(path: "/data/\(name)", size: 10, modificationTimeNanoseconds: 1)
    }

    static let batch = UploadJobSpec(
        url: "https://example.test/upload", headers: [HeaderField(name: "Authorization", value: "Bearer secret")],
        textFields: [FormTextField(name: "album", value: "holidays")], files: [], maximumRetries: 2
    )

    @Test("specs made with replacingFiles share their request; setting a field gives a spec its own")
    func specSharing() {
        let first = Self.batch.replacingFiles([Self.file("a")])
        var second = Self.batch.replacingFiles([Self.file("b")])
        #expect(first.sharesRequest(with: second))
        #expect(second.url == "https://example.test/upload" && second.maximumRetries == 2)
        second.url = "https://other.test/upload"
        #expect(!first.sharesRequest(with: second))
        #expect(first.url == "https://example.test/upload")
        #expect(second.url == "https://other.test/upload")
        #expect(second.headers == first.headers && second.textFields == first.textFields)
        second.maximumRetries = nil
        #expect(second.maximumRetries == nil && first.maximumRetries == 2)
    }

    @Test("equality and hashing look at values, shared or not")
    func specEquality() {
        let shared = Self.batch.replacingFiles([Self.file("a")])
        let separate = UploadJobSpec(
            url: "https://example.test/upload", headers: [HeaderField(name: "Authorization", value: "Bearer secret")],
            textFields: [FormTextField(name: "album", value: "holidays")], files: [Self.file("a")], maximumRetries: 2
        )
        #expect(!shared.sharesRequest(with: separate))
        #expect(shared == separate)
        #expect(shared.hashValue == separate.hashValue)
        #expect(shared != Self.batch.replacingFiles([Self.file("b")]))
        var changed = separate
        changed.method = "PUT"
        #expect(shared != changed)
    }

    @Test("the spec's JSON keeps its keys (journals written before read the same)")
    func specJSON() throws {
        let spec = Self.batch.replacingFiles([Self.file("a")])
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(spec)) as? [String: Any]
        #expect(Set(object?.keys ?? [:].keys) == [
            "url", "method", "headers", "fileField", "textFields", "extraFileParts", "files", "maximumRetries",
        ])
        #expect(try JSONDecoder().decode(UploadJobSpec.self, from: JSONEncoder().encode(spec)) == spec)
        var unlimited = spec
        unlimited.maximumRetries = nil
        let unlimitedObject = try JSONSerialization.jsonObject(with: JSONEncoder().encode(unlimited)) as? [String: Any]
        #expect(unlimitedObject?["maximumRetries"] == nil)
        #expect(try JSONDecoder().decode(UploadJobSpec.self, from: JSONEncoder().encode(unlimited)) == unlimited)
    }

    @Test("sharingRequest shares only equal request fields")
    func specInterning() {
        let decoded = UploadJobSpec(
            url: "https://example.test/upload", headers: [HeaderField(name: "Authorization", value: "Bearer secret")],
            textFields: [FormTextField(name: "album", value: "holidays")], files: [Self.file("b")], maximumRetries: 2
        )
        let previous = Self.batch.replacingFiles([Self.file("a")])
        let interned = decoded.sharingRequest(with: previous)
        #expect(interned.sharesRequest(with: previous))
        #expect(interned == decoded)
        var other = decoded
        other.fileField = "upload"
        #expect(!other.sharingRequest(with: previous).sharesRequest(with: previous))
    }

    @Test("a job's error, response and attempt history read back as set, and clearing them equals a fresh job")
    func jobOutcome() {
        let fresh = UploadJob(id: 1, spec: Self.batch.replacingFiles([Self.file("a")]))
        var job = fresh
        #expect(job.lastError == nil && job.response == nil && job.attemptHistory.isEmpty)
        job.lastError = .serverRejected(status: 503, retryAfter: nil)
        job.response = UploadResponse(status: 503, body: Array("later".utf8))
        job.recordAttempt(UploadAttempt(number: 1, outcome: .failed, status: 503))
        #expect(job.lastError == .serverRejected(status: 503, retryAfter: nil))
        #expect(job.response?.status == 503)
        #expect(job.attemptHistory.map(\.number) == [1])
        let copy = job
        job.lastError = nil
        #expect(copy.lastError != nil)
        #expect(job != fresh)
        job.response = nil
        job.attemptHistory = []
        #expect(job == fresh)
        #expect(job.hashValue == fresh.hashValue)
    }

    @Test("the attempt history keeps the last maximumAttemptHistory attempts")
    func attemptHistoryLimit() {
        var job = UploadJob(id: 1, spec: Self.batch.replacingFiles([Self.file("a")]))
        for number in 1...(UploadJob.maximumAttemptHistory + 3) {
            job.recordAttempt(UploadAttempt(number: number, outcome: .failed))
        }
        #expect(job.attemptHistory.map(\.number) == Array(4...(UploadJob.maximumAttemptHistory + 3)))
    }

    @Test("the job table inserts, replaces and removes, moving the last record into a gap")
    func jobTable() {
        var table = JobTable<UploadJob>()
        let jobs = (1...5).map { UploadJob(id: UploadJobID(Int64($0)), spec: Self.batch.replacingFiles([Self.file("\($0)")])) }
        for job in jobs { table[job.id] = job }
        #expect(table.count == 5)
        var changed = jobs[2]
        changed.state = .uploading
        table[changed.id] = changed
        #expect(table.count == 5)
        #expect(table[3]?.state == .uploading)
        #expect(table.removeValue(forKey: 2)?.id == 2)
        #expect(table.removeValue(forKey: 2) == nil)
        table[5] = nil
        #expect(table.count == 3)
        #expect(Set(table.values.map(\.id)) == [1, 3, 4])
        for id: UploadJobID in [1, 3, 4] { #expect(table[id]?.id == id) }
        #expect(table[2] == nil && table[5] == nil)
        table.reserveCapacity(adding: 1000)
        #expect(table.count == 3 && table[3]?.state == .uploading && table[4]?.id == 4)
        var reordered = JobTable<UploadJob>()
        for id: UploadJobID in [4, 3, 1] { reordered[id] = table[id] }
        #expect(reordered == table)
        #expect(reordered.hashValue == table.hashValue)
        reordered[1] = nil
        #expect(reordered != table)
    }

    @Test("a batch longer than a slice is queued whole before its first job starts, in ID order")
    func slicedEnqueue() throws {
        let harness = ManagerHarness(limit: 2)
        let count = UploadManager.enqueueSliceSize * 2 + 5
        // Only the first two jobs start (and need their files); the rest stay queued.
        let started = (0..<2).map { QueuedFile.capture(path: harness.directory.file("file\($0).bin", bytes: 10)) }
        let files = started + (2..<count).map { Self.file("\($0)") }
        let ids = try harness.manager.enqueue(files.map { Self.batch.replacingFiles([$0]) })
        harness.settle()
        let events = harness.recorder.all
        let queued = events.compactMap { event -> UploadJobID? in
            if case let .queued(job) = event { return job.id }
            return nil
        }
        #expect(queued == ids)
        let firstStart = events.firstIndex { if case .started = $0 { return true } else { return false } }
        let lastQueued = events.lastIndex { if case .queued = $0 { return true } else { return false } }
        if let firstStart, let lastQueued { #expect(lastQueued < firstStart) }
        #expect(harness.transport.calls.map(\.jobID) == Array(ids.prefix(2)))
        let snapshot = harness.manager.snapshot()
        #expect(snapshot.jobs.map(\.id) == ids)
        #expect(snapshot.summary.queued == count - 2 && snapshot.summary.uploading == 2)
    }

    @Test("without keepsSucceededJobDetails a succeeded job drops its response and history; the event and the row keep them")
    func succeededJobDetails() {
        for keeps in [true, false] {
            var machine = UploadQueueStateMachine(configuration: .init(keepsSucceededJobDetails: keeps))
            _ = machine.enqueue([Fixtures.job(1)])
            _ = machine.transferBegan(1, attempt: 1, totalBytes: 10, now: .zero, date: Fixtures.date(0))
            let actions = machine.transportCompleted(
                1, attempt: 1, response: UploadResponse(status: 201, body: Array("ok".utf8)), retryAfter: nil, now: .zero
            )
            var persisted: UploadJob?
            var emitted: UploadJob?
            for action in actions {
                if case let .persist(.update(job, _)) = action { persisted = job }
                if case let .emit(.succeeded(job)) = action { emitted = job }
            }
            #expect(persisted?.response?.bodyText == "ok" && persisted?.attemptHistory.count == 1)
            #expect(emitted?.response?.bodyText == "ok" && emitted?.attemptHistory.count == 1)
            let kept = machine.job(1)
            #expect(kept?.state == .succeeded && kept?.progress.bytesSent == 10)
            #expect((kept?.response != nil) == keeps)
            #expect(kept?.attemptHistory.count == (keeps ? 1 : 0))
            #expect(machine.summary.succeeded == 1 && machine.summary.bytesSent == kept?.spec.estimatedBytes)
        }
    }

    @Test("the journal returns the IDs of inserted rows; a restored batch shares its request fields again")
    func journalSharing() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("journal.sqlite"))
        let specs = (0..<3).map { Self.batch.replacingFiles([Self.file("\($0)")]) }
        let ids = try journal.insertIDs(specs)
        #expect(ids.count == 3 && ids == ids.sorted() && Set(ids).count == 3)
        let restored = try journal.loadRestorableJobs()
        #expect(restored.map(\.id) == ids)
        #expect(restored.map(\.spec) == specs)
        #expect(restored[1].spec.sharesRequest(with: restored[0].spec))
        #expect(restored[2].spec.sharesRequest(with: restored[0].spec))
    }
}
