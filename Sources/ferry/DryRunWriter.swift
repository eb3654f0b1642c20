import Foundation
import Multipart
import Uploading

/// Writes the HTTP/1.1 request a job would send, head and streamed body, to a file handle.
struct DryRunWriter {
    /// Where the requests go (standard output for `ferry send --dry-run`).
    let output: FileHandle

    /// Writes one job's complete request message.
    ///
    /// The body is checked and laid out before anything is written, so a bad file writes nothing.
    ///
    /// - Parameter job: The job.
    /// - Throws: `UploadError` for a bad file, URL or header; `MultipartError` if a file changes
    ///   while it is written.
    func write(_ job: UploadJobSpec) throws {
        let target = try UploadTarget(job.url)
        let body = try MultipartEncoder().prepare(FormBuilder().form(for: job))
        let headers = try RequestHeaders.build(target: target, userHeaders: job.headers, contentType: body.contentType,
                                               contentLength: body.contentLength)
        var head = "\(job.method) \(target.requestTarget) HTTP/1.1\r\n"
        for header in headers {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "\r\n"
        output.write(Data(head.utf8))
        let reader = body.makeReader()
        defer { reader.close() }
        while let chunk = try reader.nextChunk() {
            output.write(Data(chunk))
        }
    }
}
