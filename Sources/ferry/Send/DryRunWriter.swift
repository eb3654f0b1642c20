import FerryHeadless
import FoundationEssentials
import Glibc
import Multipart
import UploadModel
import UploadProtocols

/// Writes the HTTP/1.1 request a job would send, head and streamed body, to a standard stream.
struct DryRunWriter {
    /// Where the requests go (standard output for `ferry send --dry-run`).
    let output: StandardStream

    /// Writes one job's complete request message, exactly as `ferry send` would send it.
    ///
    /// The request is checked and laid out before anything is written, so a bad file writes nothing.
    ///
    /// - Parameter job: The job.
    /// - Throws: `UploadError` for a bad file, URL or header; `MultipartError` if a file changes
    ///   while it is written; ``StandardStreamError`` if `output` cannot be written.
    func write(_ job: UploadJobSpec) throws {
        guard job.tus == nil else { return try writeTus(job) }
        let message = try FormBuilder().message(for: job)
        try output.write(message.head)
        let reader = message.body.makeReader()
        defer { reader.close() }
        while let chunk = try reader.nextChunk() {
            try output.write(chunk)
        }
    }

    /// Writes a tus job's first requests as `TusClientStateMachine` makes them: `OPTIONS`, then
    /// the creation `POST` a server offering `creation` alone would be sent (chunks follow as
    /// `PATCH`es of `--chunk-size` bytes at the server's offsets).
    private func writeTus(_ job: UploadJobSpec) throws {
        let request = try FormBuilder().tusRequest(for: job, jobID: UploadJobID(0), attempt: 1, connectTimeout: .seconds(1),
                                                   idleTimeout: .seconds(1), checkpoint: nil)
        guard let plan = request.tus else { return }
        var machine = TusClientStateMachine(plan: plan)
        let creationOnly = UploadResponse(status: 204, headers: [HeaderField(name: "Tus-Version", value: "1.0.0"),
                                                                 HeaderField(name: "Tus-Extension", value: "creation")])
        for action in [machine.start(), machine.answered(creationOnly)] {
            guard case let .send(tusRequest) = action else { return }
            try output.write(tusRequest.message(sharing: request.message, file: plan.file).head)
        }
    }
}
