import Foundation
import Multipart
import Testing
import TestSupport
@testable import Uploading

/// `UploadManager` builds the next jobs' requests ahead on its file queue, so that a start hands
/// a small file's request to the transport at once, its body already in memory.
@Suite("Requests prepared ahead for the jobs that start next")
struct PreparedStartTests {
    private static func isInMemory(_ body: RequestBody) -> Bool { body.files.isEmpty }

    @Test("the machine names the next waiting jobs in order, with the attempt each would start as")
    func upcomingStarts() {
        var machine = UploadQueueStateMachine(configuration: .init(concurrencyLimit: 2))
        let jobs = (1...5).map { Fixtures.job(Int64($0)) }
        _ = machine.enqueue(jobs, startingJobs: true)
        #expect(machine.upcomingStarts(2).map(\.id.rawValue) == [3, 4])
        #expect(machine.upcomingStarts(2).map(\.attempt) == [1, 1])
        #expect(machine.upcomingStarts(10).map(\.id.rawValue) == [3, 4, 5])
        _ = machine.cancel(UploadJobID(3))
        #expect(machine.upcomingStarts(2).map(\.id.rawValue) == [4, 5])
        _ = machine.pause()
        #expect(machine.upcomingStarts(2).isEmpty)
        _ = machine.resume()
        #expect(machine.upcomingStarts(0).isEmpty)
    }

    @Test("after the first starts, the next jobs' small bodies reach the transport already read, byte for byte")
    func smallBodiesArePrepared() throws {
        let harness = ManagerHarness(limit: 1)
        let ids = try harness.enqueue(3)
        #expect(harness.transport.inFlightJobIDs == [ids[0]])
        for id in ids {
            harness.transport.respond(job: id, status: 200)
            harness.settle()
        }
        let calls = harness.transport.calls
        #expect(calls.map(\.jobID) == ids)
        #expect(!Self.isInMemory(calls[0].request.message.body), "the first start had nothing prepared")
        #expect(Self.isInMemory(calls[1].request.message.body))
        #expect(Self.isInMemory(calls[2].request.message.body))
        // The same bytes as the request built at the start would send.
        for call in calls.dropFirst() {
            let fresh = try FormBuilder().message(for: try #require(harness.manager.job(call.jobID)).spec).body
            #expect(call.request.message.body.contentLength == fresh.contentLength)
            let sent = try #require(try call.request.message.body.makeReader().nextChunk())
            let read = try Self.bytes(of: fresh)
            // Bodies differ only in their random boundary: compare with it swapped.
            #expect(Self.withoutBoundary(sent) == Self.withoutBoundary(read))
        }
        #expect(harness.manager.snapshot().summary.succeeded == 3)
    }

    @Test("a large body is prepared without being read: it is read as it is sent")
    func largeBodiesStayOnDisk() throws {
        let harness = ManagerHarness(limit: 1)
        let ids = try harness.enqueue(2, bytes: 100_000)
        harness.transport.respond(job: ids[0], status: 200)
        harness.settle()
        let calls = harness.transport.calls
        #expect(calls.count == 2)
        #expect(!Self.isInMemory(calls[1].request.message.body))
    }

    @Test("a pause drops what was prepared: a file changed meanwhile fails as changed, not sent as read before")
    func pauseDropsPrepared() throws {
        let harness = ManagerHarness(limit: 1)
        let ids = try harness.enqueue(2)
        harness.manager.pause()
        harness.settle()
        let second = try #require(harness.manager.job(ids[1])).spec.files[0].path
        try Data(repeating: 0x62, count: 150).write(to: URL(fileURLWithPath: second))
        harness.transport.respond(job: ids[0], status: 200)
        harness.settle()
        harness.manager.resume()
        harness.settle()
        let job = try #require(harness.manager.job(ids[1]))
        #expect(job.state == .failed)
        #expect(job.lastError == .fileChangedSinceQueued(path: second))
        #expect(harness.transport.calls.count == 1)
    }

    @Test("a retry with another request is built for it, not taken from what was prepared for the old one")
    func retryWithAnotherRequest() throws {
        let harness = ManagerHarness(limit: 1)
        let ids = try harness.enqueue(2)
        harness.transport.respond(job: ids[0], status: 500)
        harness.settle()
        harness.transport.respond(job: ids[1], status: 200)
        harness.settle()
        var request = try #require(harness.manager.job(ids[0])).spec
        request.url = "http://127.0.0.1:9/other"
        harness.manager.retry(ids[0], request: request)
        harness.settle()
        let last = try #require(harness.transport.calls.last)
        #expect(last.jobID == ids[0])
        #expect(last.request.message.target.url == "http://127.0.0.1:9/other")
    }

    private static func bytes(of body: RequestBody) throws -> [UInt8] {
        let reader = body.makeReader(chunkSize: Int(body.contentLength) + 1)
        defer { reader.close() }
        return try reader.nextChunk() ?? []
    }

    /// The body with its boundary (the first line's text after `--`) replaced, so two encodings
    /// of the same parts compare equal.
    private static func withoutBoundary(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.firstRange(of: "\r\n") else { return text }
        let boundary = String(text[text.index(text.startIndex, offsetBy: 2)..<end.lowerBound])
        return text.replacingOccurrences(of: boundary, with: "BOUNDARY")
    }
}
