import FerryHeadless
import Foundation
import Multipart
import Uploading

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
        let message = try FormBuilder().message(for: job)
        try output.write(message.head)
        let reader = message.body.makeReader()
        defer { reader.close() }
        while let chunk = try reader.nextChunk() {
            try output.write(chunk)
        }
    }
}
