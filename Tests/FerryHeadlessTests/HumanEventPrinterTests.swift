import FerryHeadless
import Multipart
import Testing
import TestSupport
import TextFormat
import JSON
import UploadModel

@Suite("ferry send's human output")
struct HumanEventPrinterTests {
    let output = FakeTextOutput()
    let diagnostics = FakeTextOutput()

    func job(_ id: Int64, paths: [String] = ["/data/photo.jpg"], size: Int64 = 2048, state: UploadJobState = .queued,
             lastError: UploadError? = nil, response: UploadResponse? = nil) -> UploadJob {
        let files = paths.map { QueuedFile(path: $0, size: size, modificationTimeNanoseconds: 0) }
        return UploadJob(id: UploadJobID(id), spec: UploadJobSpec(url: "http://127.0.0.1:1/upload", files: files),
                         state: state, lastError: lastError, response: response)
    }

    func printer(isTerminal: Bool = false) -> HumanEventPrinter {
        HumanEventPrinter(output: output, isTerminal: isTerminal, diagnostics: diagnostics)
    }

    @Test("a line per finished, failed, retried or cancelled job; nothing for the others")
    func linesPerEvent() throws {
        let printer = printer()
        let done = job(1, state: .succeeded, response: UploadResponse(status: 201, body: []))
        let failed = job(2, paths: ["/data/a.txt", "/data/b.txt"])
        let rejected = UploadError.serverRejected(status: 403, retryAfter: nil)
        let retried = job(3, lastError: .transferFailed(reason: .connectTimedOut))
        for event: UploadEvent in [.queued(job(4)), .started(job(1)), .progressed(job(1)), .succeeded(done),
                                   .failed(failed, reason: rejected), .retrying(retried, after: .seconds(4)),
                                   .cancelled(job(5)), .removed(UploadJobID(5)), .idle(UploadSummary())] {
            try printer.handle(event)
        }
        #expect(output.lines == [
            "done    photo.jpg  \(HumanFormat.bytes(2048))  HTTP 201",
            "failed  a.txt (+1 more): \(rejected.description)",
            "retry   photo.jpg in \(HumanFormat.elapsed(.seconds(4))): \(UploadError.transferFailed(reason: .connectTimedOut).description)",
            "cancel  photo.jpg",
        ])
        #expect(diagnostics.text == "")
    }

    @Test("the links JSON answers gave follow the summary, in the order the jobs finished; --response-field picks another")
    func linksAfterTheSummary() throws {
        func answer(_ json: String) -> UploadResponse {
            UploadResponse(status: 201, headers: [HeaderField(name: "Content-Type", value: "application/json")], body: Array(json.utf8))
        }
        let printer = HumanEventPrinter(output: output, isTerminal: false, diagnostics: diagnostics,
                                        responseField: JSONPointer("/data/link"))
        try printer.handle([.succeeded(job(2, state: .succeeded, response: answer(#"{"url": "u2", "data": {"link": "d2"}}"#))),
                            .succeeded(job(1, state: .succeeded, response: answer(#"{"url": "u1"}"#))),
                            .succeeded(job(3, state: .succeeded, response: answer(#"{"data": {"link": "d3"}}"#)))])
        try printer.finish(UploadSummary(), seconds: 0.5)
        #expect(output.lines.suffix(2) == ["d2", "d3"], "\(output.lines)")
        #expect(output.lines.dropLast(2).last?.hasPrefix("0 succeeded") == true)
    }

    @Test("an endpoint that refuses the credentials is one line, not a line per job; another endpoint's 401 still shows")
    func refusedCredentialsOneLine() throws {
        let printer = printer()
        let endpoint = UploadEndpoint(url: "http://127.0.0.1:1/upload")!
        let other = UploadJob(id: UploadJobID(9), spec: UploadJobSpec(url: "http://127.0.0.1:2/upload", files: []))
        let refused = UploadError.serverRejected(status: 401, retryAfter: nil)
        try printer.handle([.endpointPaused(endpoint, EndpointPause(refusedCredentials: 401)), .failed(job(1), reason: refused),
                            .failed(job(2), reason: .credentialsRefused(endpoint: endpoint.description, status: 401)),
                            .endpointPaused(endpoint, EndpointPause(refusedCredentials: 401)), .failed(other, reason: refused)])
        #expect(output.lines == [
            "refused http://127.0.0.1:1 refused the credentials (401): none of its uploads is sent; "
                + "change them (-H, -u, --oauth2-bearer) and send again",
            "failed  #9: \(refused.description)",
        ])
    }

    @Test("a 401 to a request without credentials says the endpoint wants them, not that it refused them")
    func wantedCredentials() throws {
        let printer = printer()
        let endpoint = UploadEndpoint(url: "http://127.0.0.1:1/upload")!
        try printer.handle([.endpointPaused(endpoint, EndpointPause(refusedCredentials: 401, credentialsSent: false))])
        #expect(output.lines == [
            "refused http://127.0.0.1:1 wants credentials (401) and none were sent: none of its uploads is sent; "
                + "give them (-H, -u, --oauth2-bearer) and send again",
        ])
    }

    @Test("a Retry-After pause of an endpoint is a line when it begins and one when it ends")
    func retryAfterPauseLines() throws {
        let printer = printer()
        let endpoint = UploadEndpoint(url: "http://127.0.0.1:1/upload")!
        let wait = EndpointPause.Wait(status: 429, delay: .seconds(2), until: SchedulerInstant(nanoseconds: 2_000_000_000))
        try printer.handle([.endpointPaused(endpoint, EndpointPause(wait: wait)), .endpointResumed(endpoint)])
        #expect(output.lines == [
            "paused  http://127.0.0.1:1 for \(HumanFormat.elapsed(.seconds(2))): it answered 429 with Retry-After",
            "resumed http://127.0.0.1:1",
        ])
    }

    @Test("a batch of events is written at once, in order")
    func batchInOneWrite() throws {
        let printer = printer()
        let done = job(1, state: .succeeded, response: UploadResponse(status: 200, body: []))
        try printer.handle([.started(job(1)), .succeeded(done), .queued(job(2)), .cancelled(job(3)), .idle(UploadSummary())])
        #expect(output.lines == ["done    photo.jpg  \(HumanFormat.bytes(2048))  HTTP 200", "cancel  photo.jpg"])
        #expect(output.writeCount == 1)
        try printer.handle([.queued(job(4)), .started(job(4))])
        #expect(output.writeCount == 1)
    }

    @Test("a failure about the job's only file does not repeat its path")
    func failureWithoutRepeatedPath() throws {
        let reason = UploadError.fileChangedSinceQueued(path: "/data/photo.jpg")
        try printer().handle(.failed(job(1), reason: reason))
        let prefix = "/data/photo.jpg: "
        #expect(reason.description.hasPrefix(prefix))
        #expect(output.lines == ["failed  photo.jpg: " + reason.description.dropFirst(prefix.count)])
    }

    @Test("a journal failure goes to standard error")
    func journalFailure() throws {
        let error = UploadError.journalFailed(reason: .writeFailed(message: "disk full"))
        try printer().handle(.journalFailed(error))
        #expect(output.text == "")
        #expect(diagnostics.lines == ["ferry: \(error)"])
    }

    @Test("on a terminal, jobs in flight have a live line, erased and redrawn below each new line")
    func liveLines() throws {
        let printer = printer(isTerminal: true)
        try printer.handle(.started(job(1)))
        let live = output.text
        #expect(live.hasPrefix("  ↑ photo.jpg  ") && live.hasSuffix("\n"))
        #expect(live.filter { $0 == "\n" }.count == 1)
        try printer.handle(.cancelled(job(1)))
        #expect(output.text == live + "\u{1B}[1A\u{1B}[J" + "cancel  photo.jpg\n")
    }

    @Test("the summary counts the outcomes, and gives a rate from one second on")
    func summary() throws {
        let summary = UploadSummary(total: 3, succeeded: 2, failed: 1, bytesSent: 4096, totalBytes: 4096)
        try printer().finish(summary, seconds: 0.5)
        try printer().finish(summary, seconds: 2)
        #expect(output.lines == [
            "2 succeeded, 1 failed, 0 cancelled; \(HumanFormat.bytes(4096)) in \(HumanFormat.elapsed(.seconds(0.5)))",
            "2 succeeded, 1 failed, 0 cancelled; \(HumanFormat.bytes(4096)) in \(HumanFormat.elapsed(.seconds(2)))"
                + " (\(HumanFormat.rate(bytesPerSecond: 2048)))",
        ])
    }

    @Test("a closed output is reported to the caller")
    func closedOutput() {
        output.close()
        #expect(throws: StandardStreamError.closed(stream: "fake output")) {
            try printer().handle(.cancelled(job(1)))
        }
    }
}
