import Foundation
import Multipart
import TestSupport
import Testing
@testable import UploadModel
@testable import UploadEngine
@testable import UploadJournal

@Suite("JournalWriter")
struct JournalWriterTests {
    @Test("a job's later update replaces its earlier one in a batch, and keeps the spec rewrite the earlier one asked for")
    func laterUpdateReplacesEarlier() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("j.sqlite"))
        let writer = JournalWriter(journal: journal)
        var job = try journal.insert([UploadJournalTests.spec("a")])[0]
        // A retry re-captured the file (spec rewritten), then the job failed: one batch.
        job.spec.files = [QueuedFile(path: "/data/a", size: 99, modificationTimeNanoseconds: 7)]
        job.state = .uploading
        writer.submit(.update(job, includingSpec: true))
        job.state = .failed
        job.attempts = 2
        writer.submit(.update(job, includingSpec: false))
        writer.waitUntilWritten()
        let loaded = try #require(try journal.allJobs().first)
        #expect(loaded.state == .failed)
        #expect(loaded.attempts == 2)
        #expect(loaded.spec.files == job.spec.files)
    }

    @Test("changes of several jobs land in order; a deleted job's row stays deleted")
    func order() throws {
        let directory = TemporaryDirectory()
        let journal = try UploadJournal(path: directory.path("j.sqlite"))
        let writer = JournalWriter(journal: journal)
        let jobs = try journal.insert([UploadJournalTests.spec("a"), UploadJournalTests.spec("b")])
        var first = jobs[0]
        var second = jobs[1]
        first.state = .uploading
        writer.submit(.update(first, includingSpec: false))
        second.state = .failed
        writer.submit(.update(second, includingSpec: false))
        writer.submit(.delete([first.id]))
        first.state = .succeeded
        writer.submit(.update(first, includingSpec: false))
        writer.waitUntilWritten()
        let rows = try journal.allJobs()
        #expect(rows.map(\.id) == [second.id])
        #expect(rows.first?.state == .failed)
    }
}
