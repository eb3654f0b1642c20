import Foundation
import Multipart
import Synchronization
import TestSupport
import Testing
@testable import HTTPUploadTransport
@testable import UploadModel
@testable import UploadProtocols

/// `ResumableTransfer` through `HTTPTransport` against SwiftNIO's `NIOResumableUpload`, cancelled
/// mid-body: a job cancelled removes the upload from the server (`DELETE`), a job stopped keeps
/// it for resuming.
@Suite("Resumable requests through HTTPTransport, cancelled", .serialized, .timeLimit(.minutes(2)))
struct ResumableTransferTests {
    @Test("cancelled mid-body: DELETE ends the server's upload; stopped: the server keeps it")
    func cancelRemovesStopKeeps() async throws {
        for discarding in [true, false] {
            let server = try await ResumableUploadServer.start(stallAfter: 2 << 20)
            let dir = TemporaryDirectory()
            let path = dir.file("big.bin", bytes: 16 << 20)
            let transport = HTTPTransport()
            let target = try UploadTarget(server.baseURL + "/upload")
            let body = RequestBody(segments: [.wholeFile(try FileInspector.inspect(path))], contentType: "application/octet-stream")
            let message = RequestMessage(method: "POST", target: target, headers: [
                HeaderField(name: "Host", value: target.hostHeader), HeaderField(name: "Content-Type", value: body.contentType),
                HeaderField(name: "Content-Length", value: String(body.contentLength)),
            ] + ResumableUploadFields.creationFields, body: body)
            let request = UploadRequest(message: message, jobID: UploadJobID(1), attempt: 1, connectTimeout: .seconds(5),
                                        idleTimeout: .seconds(30), connection: ConnectionOptions(resumesUploads: true))
            let done = AsyncStream<Result<UploadResponse, UploadError>>.makeStream()
            let task = transport.start(request, bodyCompleting: { true }, completion: { result in
                done.continuation.yield(result)
                done.continuation.finish()
            })
            // The server stops reading at 2 MiB: wait until the client's writes have stood still
            // for 300 ms (so the server's 104 has long arrived), then cancel.
            var last: Int64 = -1
            for _ in 0..<200 where task.bytesWritten != last || last < 2 << 20 {
                last = task.bytesWritten
                try await Task.sleep(for: .milliseconds(300))
            }
            discarding ? task.cancelDiscardingUpload() : task.cancel()
            var outcome: Result<UploadResponse, UploadError>?
            for await result in done.stream { outcome = result }
            guard case .failure? = outcome else {
                Issue.record("a cancelled upload did not fail: \(String(describing: outcome))")
                return
            }
            // NIOResumableUpload ends its upload (and the request it passed on) on DELETE only.
            var abandoned = false
            for _ in 0..<50 where !abandoned {
                try await Task.sleep(for: .milliseconds(100))
                abandoned = server.received.first?.abandoned == true
            }
            let received = server.received.count
            try await transport.shutdown()
            try await server.shutdown()
            #expect(received == 1, "discarding \(discarding): one request reached the endpoint")
            #expect(abandoned == discarding, discarding ? "the DELETE ended the server's upload" : "a stop keeps the upload for resuming")
        }
    }
}
